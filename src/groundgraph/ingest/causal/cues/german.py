"""The German causal cue table (written for this project).

German puts the finite verb second in a main clause, so a sentence that opens with a
preposition (``Wegen des Regens wurde …``) ends its noun phrase at that verb; nouns are
capitalised, which helps find the phrase's end. In a relative clause the verb comes last
(``, was wiederum … zur Folge hatte``): the relative pronoun points back to the clause
before, and the span between it and the verb is the other role.
"""

from __future__ import annotations

import re

from groundgraph.ingest.causal.cues.table import ASIDE as _ASIDE
from groundgraph.ingest.causal.cues.table import CLAUSE_END as _CLAUSE_END
from groundgraph.ingest.causal.cues.table import ONE_WORD as _W
from groundgraph.ingest.causal.cues.table import SPAN as _SPAN
from groundgraph.ingest.causal.cues.table import TWO_WORDS as _W2
from groundgraph.ingest.causal.cues.table import (
    Cue,
    CueTable,
    cause_first,
    effect_first,
    in_turn,
    words,
)

# A relative clause that points back to the clause before: ", was wiederum …", ", die …".
_REL_DE = (
    r"(?<=,\s)(?P<cue>)(?:was|die|der|das|welche|welcher|welches)\s+"
    r"(?:wiederum\s+|seinerseits\s+|ihrerseits\s+|dann\s+|schließlich\s+|letztlich\s+)?"
)
# Nouns of places and ways: "durch das Fenster", "door het raam" are paths, not causes.
_THROUGH_DE = (
    r"(?:fenster|tür|türen|tor|wald|wälder|stadt|park|tunnel|straße|straßen|gasse|gang|flur|"
    r"garten|land|loch|menge|wüste|raum|zimmer|haus|dorf|tal|fluss|luft|wasser|halle|"
    r"innenstadt|altstadt|gegend|landschaft|nacht|tag|jahr|jahrhunderte|zeit|feld|felder|"
    r"wiesen|berge|gebirge|scheibe|glas|lupe|fernglas|rohr|leitung|hintertür|eingang|"
    r"küche|wohnung|menschenmenge|reihen|kontrolle|prüfung|zoll|schlamm|schnee)"
)
_MOTIVE_DE = (
    r"(?:reiner\s+|purer\s+|lauter\s+)?(?:angst|furcht|sorge|neugier|wut|zorn|eifersucht|"
    r"rache|verzweiflung|langeweile|protest|respekt|scham|trotz|unachtsamkeit|mitleid|"
    r"dankbarkeit|gewohnheit|not|mangel|\w*gründen|vorsicht|überzeugung|frust|enttäuschung)"
)
_PHYSICAL_DE = (
    r"(?:lauter\s+)?(?:kälte|angst|freude|hunger|müdigkeit|schmerzen|schmerz|wut|lachen|"
    r"aufregung|erschöpfung|scham|glück|durst|sorge|nervosität|schreck|rührung|zorn|neid|"
    r"stolz|ekel|hitze|erleichterung|begeisterung|verzweiflung)"
)

GERMAN = CueTable(
    language="de",
    stemmer="german",
    cues=(
        Cue(  # "Vom langen Marsch erschöpft, schlief der Soldat ein": a phrase-final participle
            name="participle",
            pattern=re.compile(
                r"^\W*(?P<cause>(?:von|vom|durch|nach|vor|mit|wegen)\s[^,;:.!?]{0,80}?\s"
                r"(?!(?:gegründet|geboren|gelegen|gebaut|bekannt|genannt)\b)"
                r"(?:\w*ge\w+(?:t|en)|\w+iert|(?:er|ver|be|zer|über)\w+t))(?P<cue>,)",
                re.IGNORECASE,
            ),
            left="cause",
        ),
        cause_first(
            "führt zu",
            rf"(?:führt|führte|führten|führen|führend)(?:\s+{_W}|{_ASIDE})(?:zu|zum|zur)",
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
            "richtet … an",
            rf"(?:richtet|richtete|richteten|richten)\s+(?P<effect>{_SPAN})\s+an(?=\s*[,.;:!?]|$)",
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
            "hat zur Folge",
            r"(?:hat|hatte|haben|hatten)\s+(?:(?-i:[a-zäöüß]+)\s+)?zur\s+folge,?(?:\s+dass)?",
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
        cause_first("sorgt dafür, dass", rf"(?:sorgt|sorgte|sorgten|sorgen)\s+{_W}dafür,?\s+dass"),
        cause_first(
            "ruft … hervor",
            rf"(?:ruft|rief|riefen|rufen)\s+(?P<effect>{_SPAN})\s+hervor|"
            rf"(?:bringt|brachte|brachten|bringen)\s+(?P<effect2>{_SPAN})\s+mit\s+sich|"
            rf"(?:führt|führte|führten)\s+(?P<effect3>{_SPAN})\s+herbei",
        ),
        cause_first(
            "trägt zu … bei",
            rf"(?:trägt|trug|trugen|tragen)\s+{_W}(?:zu|zum|zur)\s+(?P<effect>{_SPAN})\s+bei|"
            rf"(?:hat|haben|hatte|hatten)\s+{_W}(?:zu|zum|zur)\s+(?P<effect2>{_SPAN})\s+"
            r"beigetragen",
        ),
        cause_first(
            "zwingt",
            r"(?:zwang|zwangen|zwingt|zwingen|veranlasste|veranlassten|veranlasst|bewog|bewogen|"
            r"trieb|trieben)(?=\s+[^,;:.!?]{1,60}?\s+(?:zu|zum|zur|in\s+den|in\s+die)\s)",
        ),
        cause_first(
            "kostete … den Job",
            r"(?:kostet|kostete|kosteten)(?=\s+(?:\w+\s+){1,3}?(?:seinen|ihren|sein|ihr|den|das|"
            r"die)\s+(?:\w+\s+)?(?:job|leben|führerschein|arbeitsplatz|sitz|titel|posten|sieg|"
            r"kopf|amt|mandat|platz|karriere|existenz|stelle|vertrag)\b)",
        ),
        cause_first("so kam es zu", r"so\s+kam\s+es\s+(?:zu|zum|zur)", link=True),
        effect_first(
            "der Grund dafür war",
            r"(?:der\s+)?(?:grund|auslöser|ursache)\s+(?:dafür|hierfür)\s+(?:war|ist|sind|waren)",
            link=True,
        ),
        cause_first(
            "ist schuld an",
            rf"(?:ist|war|sind|waren)\s+{_W}(?:schuld|mitschuld|verantwortlich)\s+(?:an|am|für)|"
            rf"(?:trägt|trug|tragen|trugen)\s+{_W}(?:die\s+)?(?:hauptschuld|schuld|mitschuld)\s+"
            r"(?:an|am)",
        ),
        cause_first(  # ", was wiederum … zur Folge hatte": a relative clause, verb last
            "zur Folge hatte",
            rf"{_REL_DE}(?P<effect>{_SPAN})\s+(?:zur\s+folge\s+(?:hatte|hat|haben|hatten)|"
            r"nach\s+sich\s+(?:zog|zogen|zieht|ziehen)|mit\s+sich\s+(?:brachte|brachten|bringt)|"
            r"verursachte|verursachten|verursacht|auslöste|auslösten|auslöst|bewirkte|"
            r"bewirkten|bewirkt|hervorrief|hervorriefen|herbeiführte|"
            r"(?:verursacht|ausgelöst|bewirkt|hervorgerufen)\s+(?:hat|hatte|haben|hatten))"
            rf"{_CLAUSE_END}",
        ),
        cause_first(
            "zu … führte",
            rf"{_REL_DE}(?:\w+\s+)?(?:zu|zum|zur)\s+(?P<effect>{_SPAN})\s+"
            r"(?:geführt\s+(?:hat|hatte|haben|hatten)|führte|führten|führt|führen|beitrug|"
            rf"beitrugen|beiträgt|beigetragen\s+(?:hat|hatte)){_CLAUSE_END}",
        ),
        cause_first(
            "dazu führte, dass",
            r"(?<=,\s)(?:was|die|der|das)\s+(?:wiederum\s+|schließlich\s+|letztlich\s+)?"
            r"(?:\w+\s+)?(?P<cue>dazu\s+(?:geführt\s+)?(?:führte|führten|führt|hat|hatte),?"
            r"\s+dass)",
        ),
        cause_first(
            "ist der Grund für",
            rf"(?:ist|war|sind|waren)\s+{_W}(?:der|ein|die|eine)\s+{_W}"
            r"(?:grund|auslöser|ursache)\s+(?:für|von|des|der|dafür,?\s+dass)",
        ),
        cause_first(
            "so … dass",
            r"(?:so|derart|dermaßen|derartig)\s+(?:\w+\s+){0,2}?\w+,?\s+(?P<cue>dass)",
        ),
        cause_first("sodass", r"so\s*dass"),
        cause_first(
            "deshalb",
            r"deshalb|deswegen|daher|darum|folglich|somit|infolgedessen|dadurch(?!,?\s+dass)|"
            r"aufgrund\s+dessen|wegen\s+dessen|infolge\s+dessen|demzufolge|dementsprechend|"
            r"mithin|demnach|hierdurch|aus\s+diesem\s+anlass|"
            r"aus\s+diesem\s+grund|aus\s+diesen\s+gründen|als\s+folge(?!\s+(?:von|des|der)\b)",
            adverb=True,
        ),
        effect_first("weil", r"weil|zumal", lead=True),
        effect_first("dadurch, dass", r"dadurch,?\s+dass", lead=True),
        effect_first(
            "da",
            r"(?:(?<=,\s)|^)da(?=\s+(?:es|ich|du|er|sie|wir|ihr|man|der|die|das|den|dem|des|ein|"
            r"eine|einer|eines|kein|keine|mein|meine|sein|seine|unser|unsere|dies\w*|jede\w*|"
            r"alle\w*|viele\w*|niemand|nichts|über|unter|im|am|auf|bei|nach|seit|vor|mit|zum|"
            r"zur|nur|noch|bereits|schon|gestern|heute|zu|so|sehr)\b)",
            lead=True,
        ),
        effect_first(  # ", da während der Blüte …": after a comma, any clause but "da ist"
            "da",
            r"(?<=,\s)da(?=\s+(?!(?:drüben|hinten|vorne|oben|unten|draußen|drinnen|ist|war|sind|"
            r"waren|steht|stand|liegt|lag|gibt|gab|hat|hatte|haben|bin|bist|kommt|kam|und|oder"
            r")\b)\w)",
        ),
        effect_first("denn", r"(?:(?<=,\s)|^)denn", link=True),
        effect_first(
            "liegt daran, dass",
            rf"(?:liegt|lag|liegen|lagen)\s+{_W}daran,?\s+dass|"
            rf"(?:kommt|kam|rührt|rührte)\s+{_W}daher,?\s+dass",
        ),
        effect_first(
            "liegt an",
            rf"(?:liegt|lag|liegen|lagen)\s+{_W2}(?:an|am)(?=\s+(?:\w+\s+){{0,3}}?"
            r"(?!(?:meer|see|strand|küste|ufer|fluss|hang|rand|ende|rhein|main|elbe|donau|"
            r"bahnhof|markt|platz|straße|stadtrand|waldrand|fuß)\b)\w+)",
            reject=r"\b(?:hotel|haus|dorf|stadt|ort|wohnung|grundstück|hof|schloss|kirche|"
            r"restaurant|campingplatz|ferienhaus|insel|burg|hütte|garten|büro|firma|schule)\w*\s+"
            r"(?:\w+\s+)?(?:liegt|lag)\b",
        ),
        effect_first("angesichts", lead=True, phrase=True),
        effect_first("aus Angst", rf"aus(?=\s+{_MOTIVE_DE}\b)", lead=True, phrase=True),
        effect_first("vor Kälte", rf"vor(?=\s+{_PHYSICAL_DE}\b)", lead=True, phrase=True),
        effect_first(
            "durch",
            rf"durch(?=\s+(?!(?:\w+\s+){{0,2}}{_THROUGH_DE}\b)(?:ein|eine|einen|einem|einer|"
            r"den|die|das|dem|der|des|sein|seine|seinen|seinem|ihr|ihre|ihren|ihrem|zu|starke\w*|"
            r"heftige\w*|anhaltende\w*|\w+e[nmrs]?)\s)",
            lead=True,
            phrase=True,
            reject=r"\bdurch\s+und\s+durch\b",
        ),
        effect_first(
            "auf … zurückzuführen war",
            rf"{_REL_DE}(?:\w+\s+)?(?:auf|durch|von)\s+(?P<cause>{_SPAN})\s+"
            r"(?:zurückzuführen\s+(?:ist|war|sind|waren)|(?:verursacht|ausgelöst|"
            r"hervorgerufen|bedingt)\s+(?:wurde|wurden|worden\s+(?:ist|war)|ist|war)|"
            r"zurückgeht|zurückging|zurückgehen|zurückgingen)"
            rf"{_CLAUSE_END}|"
            rf"{_REL_DE.replace('P<cue>', 'P<cue2>')}(?:\w+\s+)?(?:an|am)\s+(?P<cause2>{_SPAN})\s+"
            rf"(?:liegt|lag|liegen|lagen){_CLAUSE_END}",
        ),
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
            rf"(?<=\w\s)(?:verursacht|ausgelöst|hervorgerufen|bedingt|bewirkt)\s+{_W}durch",
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
            "starb an",
            r"(?:starb|starben|stirbt|sterben|verstarb|verstarben|gestorben|erkrankte|erkrankten|"
            r"erkrankt|litt|litten|leidet|leiden)\s+(?:\w+\s+)?(?P<cue>an|am|unter)(?=\s)",
        ),
        effect_first(
            "geht auf … zurück",
            rf"(?:geht|ging|gehen|gingen)\s+{_W2}auf\s+(?P<cause>{_SPAN})\s+zurück",
        ),
        effect_first(
            "bedingt durch",
            r"^\W*(?:bedingt|verursacht|ausgelöst|hervorgerufen)\s+durch",
            lead=True,
            phrase=True,
        ),
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
        "es an als nach wie bei oder wird wurde sind haben werden sein noch aus einer ich wir in "
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
    coordinators=words("und oder sowie"),
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
