"""The Dutch causal cue table (written for this project).

Dutch puts the finite verb second in a main clause, so a sentence that opens with a
preposition (``Dankzij de dijk bleef …``) ends its noun phrase at that verb: a known
finite verb, or the word the subject follows (``… windsnelheden | produceerden de``). In a
relative clause the verb comes last (``, wat tot … leidde``). ``door`` is read as a
cause except before places and ways (``door het raam``), as a verb's particle (``ging
door``) and in a passive, where it names the agent (``werd gevolgd door``).
"""

from __future__ import annotations

import re

from groundgraph.ingest.causal.cues.table import ASIDE as _ASIDE
from groundgraph.ingest.causal.cues.table import CLAUSE_END as _CLAUSE_END
from groundgraph.ingest.causal.cues.table import ONE_WORD as _W
from groundgraph.ingest.causal.cues.table import SPAN as _SPAN
from groundgraph.ingest.causal.cues.table import (
    CueTable,
    cause_first,
    effect_first,
    in_turn,
    words,
)

# A relative clause that points back to the clause before: ", was wiederum …", ", die …".
_REL_NL = (
    r"(?<=,\s)(?P<cue>)(?:wat|die|dat|hetgeen|welke)\s+"
    r"(?:op\s+(?:zijn|haar|hun)\s+beurt\s+|vervolgens\s+|weer\s+|uiteindelijk\s+)?"
)
# Nouns of places and ways: "durch das Fenster", "door het raam" are paths, not causes.
_THROUGH_NL = (
    r"(?:raam|ramen|venster|deur|poort|gang|tunnel|straat|straten|stad|park|bos|bossen|tuin|"
    r"land|gat|kier|opening|hek|muur|ruit|lens|kijker|verrekijker|gordijnen|lucht|water|"
    r"menigte|nacht|dorp|centrum|wijk|duinen|velden|kamer|huis|zaal|hal|keuken|keukenraam|"
    r"woonkamer|straatjes|polder|weilanden|buurt|binnenstad|achterdeur|voordeur|buis|"
    r"leiding|controle|douane|modder|eeuwen|jaren|tijd|dag)"
)
_MOTIVE_NL = (
    r"(?:pure\s+)?(?:angst|vrees|nieuwsgierigheid|wraak|protest|voorzorg|jaloezie|woede|"
    r"frustratie|schaamte|respect|medelijden|gewoonte|noodzaak|verveling|wanhoop|"
    r"onachtzaamheid|dankbaarheid|liefde|zorg|principe)"
)
_PHYSICAL_NL = (
    r"(?:de\s+)?(?:kou|honger|vermoeidheid|angst|vreugde|blijdschap|schrik|pijn|woede|geluk|"
    r"verdriet|ontroering|"
    r"opwinding|uitputting|schaamte|dorst|zenuwen|spanning|hitte|opluchting|ellende)"
)

DUTCH = CueTable(
    language="nl",
    stemmer="dutch",
    cues=(
        cause_first(
            "leidt tot",
            rf"(?:leidt|leidde|leidden|leiden|leidend)(?:\s+{_W}|{_ASIDE})tot(?!\s+aan\b)",
            reject=r"\b(?:pad|weg|straat|deur|trap|brug|tunnel|gang|route|steeg)\w*\s+"
            r"(?:\w+\s+)?leid",
        ),
        cause_first(
            "tot … geleid",
            rf"(?:heeft|hebben|had|hadden)\s+{_W}tot\s+(?P<effect>{_SPAN})\s+geleid",
        ),
        cause_first(
            "veroorzaakt",
            r"(?:veroorzaakt|veroorzaakte|veroorzaakten|veroorzaken)(?!\s+door\b)",
        ),
        cause_first(
            "zorgt voor",
            rf"(?:zorgt|zorgde|zorgden|zorgen)\s+{_W}voor"
            r"(?!\s+(?:zijn|haar|hun|mijn|je|jouw|onze|jullie)\b)",
        ),
        cause_first("resulteert in", r"(?:resulteert|resulteerde|resulteerden|resulteren)\s+in"),
        cause_first(
            "zorgt ervoor dat",
            rf"(?:zorgt|zorgde|zorgden|zorgen)\s+{_W}(?:er\s+)?(?:voor|ervoor),?\s+dat",
        ),
        cause_first(
            "heeft tot gevolg",
            rf"(?:heeft|had|hebben|hadden)\s+{_W}(?:tot|als)\s+gevolg,?(?:\s+dat)?",
        ),
        cause_first(
            "is de oorzaak van",
            rf"(?:is|was|zijn|waren)\s+{_W}(?:de|een)\s+{_W}(?:oorzaak|reden)\s+(?:van|voor)",
        ),
        cause_first("waardoor", r"waardoor|zodat|met\s+als\s+gevolg,?(?:\s+dat)?"),
        cause_first(
            "leidt ertoe dat",
            rf"(?:leidt|leidde|leidden|leiden)\s+{_W}ertoe,?\s+dat|"
            rf"(?:heeft|hebben|had|hadden)\s+{_W}ertoe\s+geleid,?\s+dat|"
            rf"(?:zorgt|zorgde|zorgden|zorgen)\s+{_W}ervoor,?\s+dat",
        ),
        cause_first(
            "brengt … teweeg",
            rf"(?:brengt|bracht|brachten|brengen)\s+(?P<effect>{_SPAN})\s+teweeg|"
            rf"(?:lokt|lokte|lokten|lokken)\s+(?P<effect2>{_SPAN})\s+uit|"
            rf"(?:brengt|bracht|brachten|brengen)\s+(?P<effect3>{_SPAN})\s+met\s+zich\s+mee|"
            r"teweeggebracht|uitgelokt",
        ),
        cause_first(
            "geeft aanleiding tot",
            rf"(?:geeft|gaf|gaven|geven)\s+{_W}aanleiding\s+tot|"
            rf"(?:draagt|droeg|droegen|dragen)\s+{_W}bij\s+(?:aan|tot)|"
            rf"(?:heeft|hebben|had|hadden)\s+{_W}bijgedragen\s+(?:aan|tot)",
        ),
        cause_first(
            "dwingt",
            r"(?:dwong|dwongen|dwingt|dwingen|noodzaakte|noodzaakten|bracht|brachten)"
            r"(?=\s+[^,;:.!?]{1,60}?\s+(?:tot|om\s+te|ertoe)\s)",
        ),
        cause_first(
            "deed … stijgen",
            r"(?:deed|deden|doet|doen)(?=\s+(?:[\w'’-]+\s+){1,5}?(?:stijgen|dalen|zakken|"
            r"smelten|instorten|barsten|breken|ontploffen|schrikken|huilen|lachen|twijfelen|"
            r"verdwijnen|vallen|overlopen|bevriezen|verwelken|ontstaan|beven|schudden)\b)",
        ),
        cause_first(
            "tot … leidde",
            rf"{_REL_NL}(?:\w+\s+)?tot\s+(?P<effect>{_SPAN})\s+(?:leidde|leidden|leidt|"
            rf"leiden|heeft\s+geleid|hebben\s+geleid|had\s+geleid|geleid\s+heeft){_CLAUSE_END}",
        ),
        cause_first(
            "… veroorzaakte",
            rf"{_REL_NL}(?P<effect>{_SPAN})\s+(?:veroorzaakte|veroorzaakten|veroorzaakt|"
            r"teweegbracht|teweegbrachten|tot\s+gevolg\s+(?:had|heeft|hadden|hebben)|"
            r"met\s+zich\s+meebracht|veroorzaakt\s+(?:heeft|had|hebben))"
            rf"{_CLAUSE_END}",
        ),
        cause_first("zo … dat", r"zo\s+(?:\w+\s+){0,2}?\w+,?\s+(?P<cue>dat)"),
        cause_first(
            "daardoor",
            r"daardoor|daarom|dus|bijgevolg|hierdoor|zodoende|derhalve|vandaar(?:\s+dat)?|"
            r"dientengevolge|hierom|daarmee|om\s+die\s+redenen|"
            r"als\s+gevolg\s+daarvan|om\s+(?:die|deze)\s+reden",
            adverb=True,
        ),
        effect_first(
            "het gevolg van",
            r"(?:is|was|zijn|waren)\s+(?:\w+\s+)?(?:het|een)\s+(?:\w+\s+)?(?:gevolg|resultaat)\s+van|"
            r"(?:het|een)\s+(?:\w+\s+)?(?:gevolg|resultaat)\s+(?:is|was|zijn|waren)\s+van",
        ),
        effect_first("omdat", lead=True),
        effect_first("doordat", lead=True),
        effect_first("aangezien", lead=True),
        effect_first("want", link=True),
        effect_first("vanwege", r"vanwege|wegens", lead=True, phrase=True),
        effect_first("dankzij", lead=True, phrase=True),
        effect_first(
            "stierf aan",
            r"(?:stierf|stierven|overleed|overleden|sterft|sterven|bezweek|bezweken)\s+(?P<cue>aan)",
        ),
        cause_first(
            "richtte … aan",
            rf"(?:richt|richtte|richtten|richten)\s+(?P<effect>{_SPAN})\s+aan(?=\s*[,.;:!?]|$)",
        ),
        effect_first("in verband met", r"in\s+verband\s+met", lead=True, phrase=True),
        cause_first(
            "kostte … zijn baan",
            r"(?:kost|kostte|kostten)(?=\s+(?:\w+\s+){1,3}?(?:zijn|haar|hun|het|de)\s+(?:\w+\s+)?"
            r"(?:baan|leven|rijbewijs|zetel|titel|functie|positie|overwinning|carrière|plek|"
            r"contract)\b)",
        ),
        effect_first("uit angst", rf"uit(?=\s+{_MOTIVE_NL}\b)", lead=True, phrase=True),
        effect_first("van de kou", rf"van(?=\s+{_PHYSICAL_NL}\b)", phrase=True),
        effect_first(  # "door een blessure", not "door het raam" nor the passive "gevolgd door"
            "door",
            rf"door(?=\s+(?!(?:\w+\s+){{0,2}}{_THROUGH_NL}\b)(?!(?:naar|tot|met|en|of|als|heen|"
            r"elkaar|middel|weg|gaan|gaat|ging|lopen|liep|werken|werkte|zetten|zette|ondanks|omdat|"
            r"want|maar|doordat|toen|dus|vanwege|wegens|zodat|terwijl|hoewel|dan)\b)\w)",
            lead=True,
            phrase=True,
            not_before="en niet ging gaat gaan gingen liep loopt lopen liepen reed rijdt reden "
            "werkte werkt bleef blijft zette zet ga",
            # a passive's agent: "werd gevolgd door", "door beide partijen is ondertekend"
            reject=r"\b(?:werd|werden|wordt|worden)\b|\bdoor\s[^,;.]{1,60}?\s"
            r"(?:\w+[dt]\s+(?:is|zijn|was|waren)|(?:is|zijn|was|waren)\s+\w+[dt])\b",
        ),
        effect_first(
            "de reden was",
            r"^\W*(?:de\s+)?(?:reden|oorzaak)\s+(?:daarvan|hiervan|hiervoor|daarvoor)?\s*(?:was|is)",
            link=True,
        ),
        effect_first(
            "komt voort uit",
            rf"(?:komt|kwam|komen|kwamen)\s+{_W}voort\s+uit|door\s+toedoen\s+van",
        ),
        effect_first(
            "als gevolg van", r"(?:als|ten)\s+gevolge?\s+van|naar\s+aanleiding\s+van", lead=True
        ),
        effect_first("veroorzaakt door", r"(?:veroorzaakt|uitgelokt|teweeggebracht)\s+door"),
        effect_first(
            "door … veroorzaakt",
            rf"(?:werd|werden|wordt|worden|is|zijn|was|waren)\s+{_W}door\s+(?P<cause>{_SPAN})\s+"
            r"(?:veroorzaakt|uitgelokt)",
        ),
        effect_first(
            "komt door",
            rf"(?:komt|kwam|komen|kwamen)\s+{_W}door",
            reject=r"\b(?:binnen|naar\s+buiten|heen|langs)\b",
        ),
        effect_first("te wijten aan", r"te\s+(?:wijten|danken)\s+aan"),
        effect_first(
            "is het gevolg van",
            rf"(?:is|zijn|was|waren)\s+{_W}(?:het|een)\s+{_W}(?:gevolg|resultaat)\s+van",
        ),
        effect_first("vloeit voort uit", rf"(?:vloeit|vloeide|vloeien)\s+{_W}voort\s+uit"),
        effect_first(
            "de oorzaak van",
            rf"de\s+{_W}(?:oorzaak|reden)\s+(?:van|voor)\s+(?P<effect>{_SPAN})\s+"
            r"(?:is|was|zijn|waren|ligt|lag)",
        ),
    ),
    in_turn=in_turn(r"op\s+(?:zijn|haar|hun)\s+beurt|weer|vervolgens"),
    stopwords=words(
        "de het een en van is dat op te in niet zijn met voor maar ook om als aan er bij nog "
        "naar uit wat worden wordt werd dan hij ze zij wij we ik je heeft hebben had was waren "
        "kan kunnen zal zou al deze dit die geen meer veel omdat hoe wel toch"
    ),
    articles=words("de het een 't"),
    trailing=words(
        "is zijn was waren werd werden wordt worden heeft hebben had hadden kan kunnen kon "
        "konden moet moest moesten zal zullen zou zouden mag ook vaak vooral grotendeels deels "
        "waarschijnlijk uiteindelijk mede"
    ),
    leading=words("en maar of dan toen"),
    coordinators=words("en of"),
    finite=words(
        "werd werden wordt worden is zijn was waren heeft hebben had hadden moest moesten kon "
        "konden kan kunnen zal zullen bleef bleven ging gingen kwam kwamen liep liepen viel "
        "vielen steeg stegen daalde daalden staat stond stonden lag lagen zat zaten kreeg "
        "kregen gaat komt blijft moet mag mocht wilde zou zouden"
    ),
    subject=words("de het een er we wij ze zij hij ik je men veel alle"),
    negators=words("niet geen nooit"),
    denials=words("geen niets"),
    unknown=re.compile(
        r"^(?:nog\s+|nog\s+steeds\s+)?(?:onbekend|onduidelijk|niet\s+bekend)", re.IGNORECASE
    ),
    relatives=words("die dat wat welke waar wie"),
    demonstratives=words("dit dat deze die"),
    breakers=words("maar echter hoewel terwijl"),
    verb_second=True,
)
