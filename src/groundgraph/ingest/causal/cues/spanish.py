"""Causal cue table for Spanish (written for this project)."""

from __future__ import annotations

import re

from groundgraph.ingest.causal.cues.table import ASIDE as _ASIDE
from groundgraph.ingest.causal.cues.table import ONE_WORD as _W
from groundgraph.ingest.causal.cues.table import SPAN as _SPAN
from groundgraph.ingest.causal.cues.table import (
    CueTable,
    cause_first,
    effect_first,
    in_turn,
    participle_opener,
    words,
)

_A = r"(?:a|al)"
_MOTIVE = (
    r"(?:puro\s+|pura\s+)?(?:miedo|temor|celos|curiosidad|rabia|venganza|despecho|"
    r"aburrimiento|costumbre|necesidad|respeto|lástima|vergüenza|prudencia|precaución|"
    r"desesperación|negligencia|cansancio|hambre|envidia|descuido|orgullo|solidaridad)"
)
_SANCTION = (
    r"(?:despedid|detenid|arrestad|condenad|multad|sancionad|castigad|suspendid|expulsad|"
    r"acusad|procesad|imputad|hospitalizad|ingresad|premiad|galardonad|criticad|"
    r"denunciad|encarcelad|juzgad|conocid|famos)[oa]s?"
)


SPANISH = CueTable(
    language="es",
    stemmer="spanish",
    cues=(
        participle_opener(
            r"\w{3,}(?:ado|ada|ados|adas|ido|ida|idos|idas)|mordid\w*|muert\w*|roto|rota|cubiert\w*",
            r"nacid\w*|situad\w*|ubicad\w*|fundad\w*|construid\w*|conocid\w*|publicad\w*|casad\w*|llamad\w*|dedicad\w*|rodead\w*|compuest\w*|escrit\w*|equipad\w*|dotad\w*|nombrad\w*|querid\w*|estimad\w*|pasad\w*|todo|toda|nada|cada",
        ),
        cause_first(
            "causa",
            r"(?:causa|causan|causó|causaron|causado|causada|causados|causadas|causaba|causaban|"
            r"causará|causarán|causar|causando)(?!\s+por\b)",
            not_before="la una las su sus principal verdadera misma única primera a",
        ),
        cause_first(
            "provoca",
            r"(?:provoca|provocan|provocó|provocaron|provocado|provocada|provocados|provocadas|"
            r"provocaba|provocaban|provocará|provocar|provocando|genera|generan|generó|"
            r"generaron|generado|generaba|generará|generar|generando|ocasiona|ocasionan|"
            r"ocasionó|ocasionaron|ocasionado|ocasionar|desencadena|desencadenan|desencadenó|"
            r"desencadenaron|desencadenado|desencadenar|origina|originan|originó|originaron|"
            r"originado|produce|producen|produjo|produjeron|trajo\s+consigo|trae\s+consigo|"
            r"traen\s+consigo|motivó|motivaron|suscitó|suscitaron|acarreó|acarrearon|acarrea|"
            r"conlleva|conllevan|conllevó|propició|propiciaron|propicia|favoreció|favorecieron|"
            r"(?:derivó|derivaron|deriva|derivan|desembocó|desembocaron|desemboca)\s+en)"
            r"(?!\s+por\b)",
        ),
        cause_first(
            "lleva a",
            r"(?:lleva|llevan|llevó|llevaron|llevado|llevaba|llevaban|llevará|llevar|llevando|"
            rf"conduce|conducen|condujo|condujeron|conducido|conducir)(?:\s+{_W}|{_ASIDE}){_A}"
            r"(?!\s+(?:su|sus|mi|mis|tu|tus|nuestro|nuestra|nuestros|nuestras|casa|cabo)\b)",
            reject=r"\b(?:camino|calle|carretera|sendero|puerta|escalera|puente|pasillo|túnel|"
            r"ruta|pista|autopista)s?\s+(?:\w+\s+)?(?:lleva|llevan|llevaba|conduce|conducen)",
        ),
        cause_first(
            "da lugar a", rf"(?:da|dan|dio|dieron|dado|daba|dará|dar|dando)\s+lugar\s+{_A}"
        ),
        cause_first(
            "obliga a",
            r"(?:obliga|obligan|obligó|obligaron|obligaba|obligará|forzó|forzaron|fuerza|"
            r"fuerzan|forzaba|empujó|empujaron|indujo|indujeron|llevó|llevaron|animó|"
            r"animaron)(?=\s+(?:[\w'’-]+\s+){0,6}?(?:a|al)\s+\w+(?:ar|er|ir|arse|erse|irse)\b)",
            not_before="fue fueron es son ser sido era eran se",
        ),
        cause_first(
            "hizo + infinitivo",
            r"(?:hizo|hicieron|hace|hacen|hacía|hará)(?=\s+(?:\w+\s+)?(?:caer|subir|bajar|"
            r"disparar|aumentar|disminuir|estallar|explotar|fracasar|llorar|reír|huir|derretir|"
            r"perder|temblar|descarrilar|desplomar|cerrar|saltar|dudar|enfermar)\b)",
        ),
        cause_first(
            "dejó sin",
            r"(?:deja|dejan|dejó|dejaron|dejaba|ha\s+dejado|han\s+dejado)(?=\s+[^,;:.!?]{0,50}?"
            r"\bsin\b)",
        ),
        cause_first(
            "le costó el puesto",
            r"(?:costó|cuesta|costaron|ha\s+costado)(?=\s+(?:\w+\s+){0,2}?(?:el|la|su|sus)\s+"
            r"(?:\w+\s+)?(?:puesto|vida|trabajo|empleo|cargo|carrera|título|escaño|victoria|"
            r"libertad|carnet|licencia)\b)",
        ),
        cause_first(
            "contribuye a",
            rf"(?:contribuye|contribuyen|contribuyó|contribuyeron|contribuido)\s+{_A}",
        ),
        cause_first(  # "supuso el declive": brought about; not "supuso que" (assumed)
            "supuso",
            r"(?:supone|suponen|supuso|supusieron|ha\s+supuesto|han\s+supuesto)"
            r"(?!\s+(?:que|un\s+reto|una\s+sorpresa)\b)(?=\s+(?:el|la|los|las|un|una|su|sus)\s)",
        ),
        cause_first(
            "hace que",
            r"(?:hace|hacen|hizo|hicieron|ha\s+hecho|hacía|hará|hacer|haciendo)\s+que",
        ),
        cause_first(
            "es la causa de",
            r"(?:es|son|fue|fueron|era|ha\s+sido)\s+(?:la|una|el)\s+(?:\w+\s+)?"
            r"(?:causa|origen|motivo|razón)\s+(?:de|del)",
        ),
        cause_first(
            "tuvo como consecuencia",
            r"(?:tuvo|tiene|tienen|tuvieron|trajo|trae|traen)\s+(?:como|por)\s+"
            r"(?:consecuencia|resultado)(?:\s+que)?|(?:resulta|resultan|resultó|resultaron)\s+en",
        ),
        cause_first(
            "tan … que",
            r"tan(?:to|ta|tos|tas)?\s+(?:\w+\s+){0,2}?\w+\s+(?P<cue>que)|"
            r"(?:tanto|hasta\s+el\s+punto\s+de|a\s+tal\s+punto)\s+que",
        ),
        cause_first(
            "así que",
            r"así\s+que|de\s+(?:modo|manera|forma)\s+que|por\s+lo\s+(?:que|cual)|"
            r"(?<=,\s)(?:con\s+lo\s+(?:que|cual)|lo\s+que\s+(?:provocó|causó|hizo\s+que|obligó))",
            link=True,
        ),
        cause_first(
            "por eso",
            r"por\s+(?:eso|ello|lo\s+tanto|tanto|consiguiente|este\s+motivo|esta\s+razón)|"
            r"en\s+consecuencia|como\s+(?:resultado|consecuencia)(?!\s+de)|de\s+ahí\s+que|"
            r"así\s+pues|por\s+ende|consecuentemente|por\s+(?:ese|tal|dicho)\s+motivo|"
            r"por\s+(?:esa|tal)\s+razón|debido\s+a\s+(?:ello|esto|eso)|a\s+causa\s+de\s+(?:ello|esto|eso)",
            adverb=True,
        ),
        effect_first("porque", lead=True),
        effect_first("pues", r"(?<=,\s)pues(?!\s+(?:bien|nada|sí|no)\b)", link=True),
        effect_first(
            "el motivo fue",
            r"^\W*(?:el\s+motivo|la\s+(?:razón|causa))\s+(?:de\s+(?:ello|esto|eso)\s+)?"
            r"(?:fue|es|era)(?:\s+que)?",
            link=True,
        ),
        effect_first(
            "a falta de",
            r"(?:a|por)\s+falta\s+de|a\s+fuerza\s+de|en\s+vista\s+de|por\s+exceso\s+de|"
            r"por\s+(?:culpa|causa|motivo)\s+de|en\s+virtud\s+de|habida\s+cuenta\s+de",
            lead=True,
        ),
        effect_first("por miedo", rf"por(?=\s+{_MOTIVE}\b)", lead=True),
        effect_first(
            "murió de",
            r"(?:murió|murieron|muere|mueren|muerto|muerta|falleció|fallecieron|fallecido|"
            r"lloraba|lloró|temblaba|tembló)\s+(?P<cue>de)(?!\s+(?:nuevo|repente|pronto|pie)\b)",
            not_before="el la los las un una su sus del",
        ),
        effect_first(  # "se suspendió por la lluvia": "por" before an event or a condition
            "por la lluvia",
            r"por(?=\s+(?:el|la|los|las|un|una)?\s*(?:\w+\s+)?(?:lluvia|lluvias|nieve|nevada|nevadas|niebla|huelga|tormenta|tormentas|temporal|viento|vientos|calor|frío|sequía|accidente|avería|averías|fallo|fallos|incendio|incendios|crisis|pandemia|obras|enfermedad|lesión|inundaciones|granizo|hielo|helada|heladas|apagón|atasco|mal\s+tiempo|falta|exceso|escasez|covid|gripe|retraso|retrasos|ola\s+de\s+calor)\b)",
            lead=True,
        ),
        effect_first("al no", r"^\W*al(?=\s+no\s+\w+(?:ar|er|ir)\b)", lead=True),
        effect_first(
            "se produjo por",
            r"(?:se\s+(?:produjo|produce|produjeron|originó|origina|desató|desencadenó|debió))\s+"
            r"(?:\w+\s+)?por",
        ),
        effect_first(
            "por + delito",
            rf"{_SANCTION}(?:\s+[\w'’-]+){{0,3}}?\s+(?P<cue>por)"
            r"(?!\s+(?:la\s+)?(?:primera|segunda|tercera|\d+|años|meses|días|vida)\b)",
        ),
        effect_first("ya que", r"ya\s+que|puesto\s+que|dado\s+que|debido\s+a\s+que", lead=True),
        effect_first("debido a", rf"debido\s+{_A}", lead=True),
        effect_first(  # "fue multada por verter residuos": "por" before an infinitive
            "por",
            r"(?<=\s)por(?=\s+(?:no\s+)?(?:haber\s+\w+|\w{2,}(?:ar|er|ir)(?:lo|la|los|las|se)?)\b)",
        ),
        effect_first("a causa de", r"a\s+causa\s+(?:de|del)|por\s+culpa\s+(?:de|del)", lead=True),
        effect_first("gracias a", rf"gracias\s+{_A}", lead=True, not_before="muchas dar dio doy"),
        effect_first(
            "como consecuencia de",
            r"como\s+(?:consecuencia|resultado)\s+(?:de|del)|a\s+raíz\s+(?:de|del)|"
            r"a\s+consecuencia\s+(?:de|del)",
            lead=True,
        ),
        effect_first(
            "como",
            r"^como(?!\s+(?:siempre|de\s+costumbre|se\s+\w+|era\s+de\s+esperar|ya\s+\w+|sabes|"
            r"saben|dije|dijo|decía|te\s+\w+|les?\s+\w+|en\s+\w+|cada|todos|todas|suele"
            r"|es\s+habitual|de\s+\w+)\b)(?=[^,]*,)",
            lead=True,
        ),
        effect_first(
            "causado por",
            r"(?:causad[oa]s?|provocad[oa]s?|ocasionad[oa]s?|generad[oa]s?|desencadenad[oa]s?|"
            rf"producid[oa]s?)\s+{_W}por",
        ),
        effect_first("se debe a", rf"se\s+(?:debe|deben|debió|debieron|debía|debían)\s+{_W}{_A}"),
        effect_first(
            "es consecuencia de",
            r"(?:es|son|fue|fueron|era)\s+(?:la\s+|una\s+|el\s+|un\s+)?(?:\w+\s+)?"
            r"(?:consecuencia|resultado|fruto|producto)\s+(?:de|del)|"
            r"(?:proviene|provienen|provino|procede|proceden|obedece|obedecen|obedecía)\s+(?:de|del|a|al)|"
            r"(?:derivad[oa]s?|provocad[oa]s?)\s+(?:de|del)",
        ),
        effect_first(
            "la causa de",
            rf"(?:la|el)\s+{_W}(?:causa|motivo|origen)\s+(?:de|del)\s+(?P<effect>{_SPAN})\s+"
            r"(?:es|fue|son|era)",
        ),
    ),
    in_turn=in_turn(r"a\s+su\s+vez"),
    stopwords=words(
        "el la los las de del que y en un una es por con para se no su sus al lo como más pero "
        "fue ha han era muy también sin sobre este esta entre cuando todo ya porque hay donde "
        "desde nos me mi está están estaba estaban ese esa eso"
    ),
    articles=words("el la los las un una unos unas lo"),
    trailing=words(
        "es son fue fueron era eran ha han había habían sido será puede pueden podría también "
        "le les me te nos principalmente probablemente finalmente directamente"
    ),
    leading=words("y pero o e u entonces luego"),
    coordinators=words("y e o u"),
    finite=words(
        "es son fue fueron era eran ha han había habían será serán puede pueden pudo tuvo "
        "tuvieron se quedó quedaron"
    ),
    subject=words(
        "el la los las un una unos unas este esta estos estas mi mis su sus nuestro nuestra "
        "muchos muchas varios varias todos todas nadie"
    ),
    negators=words("no nunca jamás ni tampoco"),
    denials=words("ningún ninguna ninguno nada"),
    unknown=re.compile(
        r"^(?:aún\s+|todavía\s+)?(?:(?:se\s+)?desconoc\w+|incierto|incierta|no\s+está\s+clar[oa])",
        re.IGNORECASE,
    ),
    relatives=words("que quien quienes cual cuales donde cuyo cuya lo"),
    demonstratives=words("esto eso ello aquello algo"),
    breakers=words("pero sino aunque mientras"),
    letters="ñ¿¡",
)
