"""Causal cue tables for German and Dutch (written for this project).

Both put the finite verb second in a main clause, so a sentence that opens with a
preposition (``Wegen des Regens wurde …``, ``Dankzij de dijk bleef …``) ends its noun
phrase at that verb; German nouns are capitalised, which helps find the phrase's end.
"""

from __future__ import annotations

import re

from groundgraph.ingest.causal.cues.table import (
    Cue,
    CueTable,
    cause_first,
    effect_first,
    in_turn,
    words,
)

_W = r"(?:\w+\s+)?"  # one optional word: "führte schließlich zu", "hat auch zu"
_W2 = r"(?:\w+\s+){0,2}"  # up to two: "ist vor allem auf … zurückzuführen"
_SPAN = r"[^,;:.!?]{1,120}?"

GERMAN = CueTable(
    language="de",
    stemmer="german",
    cues=(
        Cue(  # "Vom langen Marsch erschöpft, schlief der Soldat ein": a phrase-final participle
            name="participle",
            pattern=re.compile(
                r"^\W*(?P<cause>(?:von|vom|durch|nach|vor|mit|wegen)\s[^,;:.!?]{0,80}?\s"
                r"(?!(?:gegründet|geboren|gelegen|gebaut|bekannt|genannt)\b)"
                r"(?:ge\w+(?:t|en)|\w+iert|(?:er|ver|be|zer|über)\w+t))(?P<cue>,)",
                re.IGNORECASE,
            ),
            left="cause",
        ),
        cause_first(
            "führt zu",
            rf"(?:führt|führte|führten|führen|führend)\s+{_W}(?:zu|zum|zur)",
            reject=r"\b(?:weg|pfad|straße|gasse|tür|treppe|brücke|tunnel|gang|route|strecke|"
            r"ausgang|eingang|wanderweg|fußweg|steg)\w*\s+(?:\w+\s+)?führ",
        ),
        cause_first("führt dazu, dass", rf"(?:führt|führte|führten|führen)\s+{_W}dazu,?\s+dass"),
        cause_first(
            "zu … geführt",
            rf"(?:hat|haben|hatte|hatten)\s+{_W}(?:zu|zum|zur)\s+(?P<effect>{_SPAN})\s+geführt",
        ),
        cause_first(
            "verursacht",
            r"(?:verursacht|verursachte|verursachten|verursachen|verursachend|bewirkt|bewirkte|"
            r"bewirkten|bewirken)(?!\s+(?:durch|von)\b)",
        ),
        cause_first(
            "löst … aus",
            rf"(?:löst|löste|lösten|lösen)\s+(?P<effect>{_SPAN})\s+aus",
        ),
        cause_first(
            "ausgelöst",
            rf"(?:hat|haben|hatte|hatten)\s+(?P<effect>{_SPAN})\s+(?:ausgelöst|hervorgerufen)",
        ),
        cause_first(
            "sorgt für",
            rf"(?:sorgt|sorgte|sorgten|sorgen)\s+{_W}für"
            r"(?!\s+(?:seine|ihre|meine|deine|unsere|eure|ihren|seinen|die\s+kinder)\b)",
        ),
        cause_first(
            "hat zur Folge", rf"(?:hat|hatte|haben|hatten)\s+{_W}zur\s+folge,?(?:\s+dass)?"
        ),
        cause_first(
            "hat … zur Folge",
            rf"(?:hat|hatte|haben|hatten)\s+(?P<effect>{_SPAN})\s+zur\s+folge",
        ),
        cause_first(
            "zieht … nach sich",
            rf"(?:zieht|zog|zogen|ziehen)\s+(?P<effect>{_SPAN})\s+nach\s+sich",
        ),
        cause_first("weshalb", r"(?<=,\s)(?:weshalb|weswegen|wodurch)", link=True),
        cause_first(
            "ist der Grund für",
            rf"(?:ist|war|sind|waren)\s+{_W}(?:der|ein|die|eine)\s+{_W}"
            r"(?:grund|auslöser|ursache)\s+(?:für|von|dafür,?\s+dass)",
        ),
        cause_first("so … dass", r"so\s+(?:\w+\s+){0,2}?\w+,?\s+(?P<cue>dass)"),
        cause_first("sodass", r"so\s*dass"),
        cause_first(
            "deshalb",
            r"deshalb|deswegen|daher|darum|folglich|somit|infolgedessen|dadurch(?!,?\s+dass)|"
            r"aus\s+diesem\s+grund|aus\s+diesen\s+gründen|als\s+folge(?!\s+(?:von|des|der)\b)",
            adverb=True,
        ),
        effect_first("weil", lead=True),
        effect_first("dadurch, dass", r"dadurch,?\s+dass", lead=True),
        effect_first(
            "da",
            r"(?:(?<=,\s)|^)da(?=\s+(?:es|ich|du|er|sie|wir|ihr|man|der|die|das|den|dem|des|ein|"
            r"eine|einer|eines|kein|keine|mein|meine|sein|seine|unser|unsere|dies\w*|jede\w*|"
            r"alle\w*|viele\w*|niemand|nichts|über|unter|im|am|auf|bei|nach|seit|vor|mit|zum|"
            r"zur|nur|noch|bereits|schon|gestern|heute|zu|so|sehr)\b)",
            lead=True,
        ),
        effect_first("denn", r"(?:(?<=,\s)|^)denn", link=True),
        effect_first("schließlich", r"(?<=,\s)schließlich(?=\s+\w+\s)", link=True),
        cause_first(  # ", also brach …": "so", with the verb right after it (not "also etwa 20")
            "also",
            r"(?<=,\s)also(?=\s+(?!(?:der|die|das|den|dem|des|ein|eine|einen|einem|etwa|rund"
            r"|knapp|ungefähr|circa|im|am|in|an|auf|um|nach|vor|bei|mit|zu|zum|zur|von|vom|gegen"
            r"|ab|bis|nicht|nur|noch|auch)\b)[a-zäöüß]+\s)",
            link=True,
        ),
        effect_first("wegen", lead=True, phrase=True, not_before="von"),
        effect_first("aufgrund", r"auf\s*grund(?:\s+von)?", lead=True, phrase=True),
        effect_first("infolge", r"infolge(?:\s+von)?|als\s+folge\s+(?:von|des|der)", lead=True),
        effect_first(
            "dank",
            lead=True,
            phrase=True,
            not_before="vielen herzlichen besten großen schönen tausend ein mein unser",
        ),
        effect_first(
            "verursacht durch",
            rf"(?:verursacht|ausgelöst|hervorgerufen|bedingt|bewirkt)\s+{_W}durch",
        ),
        effect_first(
            "durch … verursacht",
            rf"(?:wurde|wurden|wird|werden|ist|sind|war|waren)\s+{_W}(?:durch|von)\s+"
            rf"(?P<cause>{_SPAN})\s+(?:verursacht|ausgelöst|hervorgerufen|bewirkt)",
        ),
        effect_first(
            "zurückzuführen auf",
            rf"(?:ist|sind|war|waren|wird|werden)\s+{_W2}auf\s+(?P<cause>{_SPAN})\s+"
            r"zurückzuführen",
        ),
        effect_first("zurückzuführen auf", r"zurückzuführen\s+auf"),
        effect_first(
            "resultiert aus",
            rf"(?:resultiert|resultierte|resultierten|resultieren|resultierend)\s+{_W}aus|"
            r"(?:ergibt|ergab|ergeben)\s+sich\s+aus",
        ),
        effect_first(
            "ist die Folge von",
            rf"(?:ist|sind|war|waren)\s+{_W}(?:die|eine)\s+{_W}folge\s+(?:von|des|der|dessen)",
        ),
        effect_first(
            "der Grund für",
            rf"(?:der|die)\s+{_W}(?:grund|ursache|auslöser)\s+(?:für|von|des|der)\s+"
            rf"(?P<effect>{_SPAN})\s+(?:ist|war|sind|waren|liegt|lag)",
        ),
    ),
    in_turn=in_turn(r"wiederum|seinerseits|ihrerseits"),
    stopwords=words(
        "der die das und ist nicht ein eine einen dem den des zu mit sich auf für von im auch "
        "es an als nach wie bei oder wird wurde sind haben werden sein noch aus einer ich wir "
        "sie er aber nur schon kann dass doch um über vom zum zur dann sehr durch wenn weil "
        "gegen ohne unter wurden hatte hatten einem eines keine kein"
    ),
    articles=words("der die das den dem des ein eine einen einem einer eines"),
    trailing=words(
        "ist sind war waren wurde wurden wird werden hat haben hatte hatten kann können konnte "
        "konnten muss müssen musste mussten soll sollte sollten dürfte könnte könnten auch oft "
        "hauptsächlich vermutlich wahrscheinlich teilweise letztlich schließlich direkt "
        "indirekt ebenfalls"
    ),
    leading=words("und aber oder dann doch sowie"),
    finite=words(
        "ist sind war waren wurde wurden wird werden hat haben hatte hatten kann können konnte "
        "konnten muss müssen musste mussten soll sollte sollten blieb blieben fiel fielen stieg "
        "stiegen sank sanken kam kamen ging gingen gab lag lagen stand standen gibt bleibt "
        "fällt steigt sinkt kommt geht liegt steht fand fanden mussten darf durfte"
    ),
    subject=words("der die das ein eine es er sie wir ich man viele alle"),
    negators=words("nicht kein keine keinen keinem keiner nie niemals"),
    denials=words("kein keine keinen keinem keiner keinerlei nichts"),
    unknown=re.compile(
        r"^(?:noch\s+|bisher\s+|weiterhin\s+|immer\s+noch\s+)?(?:unbekannt|unklar|ungeklärt|"
        r"offen|nicht\s+bekannt)",
        re.IGNORECASE,
    ),
    relatives=words("der die das welcher welche welches dessen deren wo was"),
    demonstratives=words("dies das dieses diese dessen"),
    breakers=words("aber jedoch obwohl während sondern"),
    letters="ßä",
    verb_second=True,
    capital_nouns=True,
)

DUTCH = CueTable(
    language="nl",
    stemmer="dutch",
    cues=(
        cause_first(
            "leidt tot",
            rf"(?:leidt|leidde|leidden|leiden|leidend)\s+{_W}tot(?!\s+aan\b)",
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
        cause_first("zo … dat", r"zo\s+(?:\w+\s+){0,2}?\w+,?\s+(?P<cue>dat)"),
        cause_first(
            "daardoor",
            r"daardoor|daarom|dus|bijgevolg|hierdoor|zodoende|derhalve|vandaar(?:\s+dat)?|"
            r"als\s+gevolg\s+daarvan|om\s+(?:die|deze)\s+reden",
            adverb=True,
        ),
        effect_first("omdat", lead=True),
        effect_first("doordat", lead=True),
        effect_first("aangezien", lead=True),
        effect_first("want", link=True),
        effect_first("vanwege", r"vanwege|wegens", lead=True, phrase=True),
        effect_first("dankzij", lead=True, phrase=True),
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
    in_turn=in_turn(r"op\s+(?:zijn|haar|hun)\s+beurt"),
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
