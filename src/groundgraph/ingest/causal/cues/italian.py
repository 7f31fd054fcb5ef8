"""Causal cue table for Italian (written for this project)."""

from __future__ import annotations

import re

from groundgraph.ingest.causal.cues.table import ONE_WORD as _W
from groundgraph.ingest.causal.cues.table import (
    CueTable,
    cause_first,
    effect_first,
    in_turn,
    participle_opener,
    words,
)

_DI = r"(?:di|del|dello|della|dei|degli|delle|dell['’])"
_A_IT = r"(?:a|ad|al|allo|alla|ai|agli|alle|all['’])"
_DA = r"(?:da|dal|dallo|dalla|dai|dagli|dalle|dall['’])"

ITALIAN = CueTable(
    language="it",
    stemmer="italian",
    cues=(
        participle_opener(
            r"\w{3,}(?:ato|ata|ati|ate|ito|ita|iti|ite|uto|uta|uti|ute)|pres[oaie]|mess[oaie]|rott[oaie]|chius[oaie]|spent[oaie]|rimast[oaie]|pers[oaie]|sorpres[oaie]|colt[oaie]|scoss[oaie]|mort[oaie]|offes[oaie]|delus[oaie]|stanc[oaie]|esaust[oaie]|incapace|privo|priva",
            r"nat[oaie]|situat[oaie]|fondat[oaie]|costruit[oaie]|conosciut[oaie]|pubblicat[oaie]|chiamat[oaie]|sposat[oaie]|dedicat[oaie]|circondat[oaie]|compost[oaie]|scritt[oaie]|dotat[oaie]|nominat[oaie]|car[oaie]|gentile|stato|stata|tutto|tutta",
        ),
        cause_first(
            "causa",
            r"(?:causa|causano|causò|causato|causata|causati|causate|causava|causavano|causerà|"
            rf"causare|causando)(?!\s+(?:a\s+(?:sua|loro)\s+volta\s+)?(?:{_DI}|{_DA})\b)",
            not_before="la una le sua principale vera a",
        ),
        cause_first(
            "provoca",
            r"(?:provoca|provocano|provocò|provocato|provocata|provocati|provocate|provocava|"
            r"provocherà|provocare|provocando|genera|generano|generò|generato|scatena|scatenano|"
            r"scatenò|scatenato|determina|determinano|determinò|determinato|comporta|comportano|"
            r"comportò|comportato|produce|producono|produsse|prodotto|innesca|innescano|innescò|"
            r"innescato|favorisce|favoriscono|favorì|favorito|provocarono|causarono|"
            r"generarono|determinarono|comportarono)(?!\s+da\b)",
        ),
        cause_first(
            "porta a",
            r"(?:porta|portano|portò|portato|portava|portavano|porterà|portare|portando|conduce|"
            rf"conducono|condusse|condotto)\s+{_W}{_A_IT}(?!\s+casa\b)",
        ),
        cause_first("fa sì che", r"(?:fa|fanno|fece|fatto)\s+sì\s+che"),
        cause_first(
            "tanto che",
            r"(?:tanto|al\s+punto|a\s+tal\s+punto|talmente)\s+che|"
            r"(?:così|talmente|tanto)\s+(?:\w+\s+){0,2}?\w+\s+(?P<cue>che)",
        ),
        cause_first(
            "è la causa di",
            r"(?:è|sono|era|erano|fu|(?:è|sono)\s+stat[oaie])\s+(?:la|una|il|l['’])\s*(?:\w+\s+)?"
            rf"(?:causa|origine|motivo|ragione)\s+{_DI}",
        ),
        cause_first(
            "dà luogo a",
            rf"(?:dà|danno|diede|dato|dare)\s+(?:luogo|origine)\s+{_A_IT}|"
            rf"(?:contribuisce|contribuiscono|contribuì|contribuito)\s+{_A_IT}",
        ),
        cause_first(
            "costringe a",
            r"(?:costringe|costringono|costrinse|costretto|costrinsero|obbliga|obbligano|obbligò|"
            r"obbligato|spinge|spingono|spinse|spinto|induce|inducono|indusse|indotto)"
            rf"(?=\s+(?:[\w'’-]+\s+){{0,6}}?{_A_IT}\s)",
            not_before="è sono era fu stato stata",
        ),
        cause_first(
            "fa + infinito",
            r"(?:fa|fanno|fece|fecero|fatto|faceva|farà)(?=\s+(?:\w+\s+)?(?:crollare|salire|"
            r"scendere|aumentare|diminuire|cadere|esplodere|saltare|fallire|piangere|ridere|"
            r"sciogliere|bruciare|fuggire|chiudere|perdere|impennare|calare|crescere|"
            r"deragliare|tremare|arrabbiare|ammalare|slittare)\b)",
        ),
        cause_first(
            "lascia senza",
            r"(?:lascia|lasciano|lasciò|lasciato|lasciarono)(?=(?:\s+[^,;:.!?]{1,50}?)?\s+senza\b)",
        ),
        cause_first(
            "costa il posto",
            r"(?:costato|costata|costò|costa|costano)(?=\s+(?:\w+\s+){0,2}?(?:il|la|l['’]|suo|sua)\s*"
            r"(?:\w+\s+)?(?:posto|vita|lavoro|carriera|poltrona|titolo|seggio|vittoria|libertà|"
            r"patente)\b)",
        ),
        cause_first("per cui", r"per\s+cui", link=True),
        cause_first(
            "sicché",
            r"(?<=,\s)(?:sicché|cosicché|così)(?=\s+(?:il|lo|la|i|gli|le|l['’]|un|una|\w+[aeio]\s))",
            link=True,
        ),
        cause_first(
            "quindi",
            r"quindi|dunque|perciò|pertanto|di\s+conseguenza|conseguentemente|"
            r"per\s+(?:questo|tale|questa|quel)(?:\s+(?:motivo|ragione))?|ecco\s+perché|"
            r"ne\s+consegue\s+che|da\s+qui|di\s+qui|da\s+ciò|(?<=,\s)e\s+così(?=\s+\w)",
            adverb=True,
        ),
        effect_first(  # a passive, or a participle after a comma: "causata a sua volta dalla"
            "causato da",
            r"(?:causat|provocat|generat|scatenat|determinat|innescat|prodott)[oaie]\s+"
            rf"(?:a\s+(?:sua|loro)\s+volta\s+|in\s+(?:gran\s+|buona\s+)?parte\s+|{_W})?{_DA}",
        ),
        effect_first("perché", lead=True),
        effect_first(
            "poiché",
            rf"poiché|siccome|dato\s+che|visto\s+che|giacché|per\s+via\s+{_DI}|in\s+quanto|"
            rf"dal\s+momento\s+che|considerato\s+che|per\s+colpa\s+{_DI}|a\s+forza\s+{_DI}|"
            rf"in\s+virtù\s+{_DI}|a\s+causa\s+{_DI}|"
            rf"per\s+(?:mancanza|carenza|eccesso)\s+{_DI}",
            lead=True,
        ),
        effect_first("a causa di", rf"a\s+causa\s+{_DI}", lead=True),
        effect_first(
            "per effetto di",
            rf"per\s+effetto\s+{_DI}|^\W*complice|^\W*(?:visto|vista|visti|viste|dato|data|dati|"
            r"date|considerato|considerata|considerati|considerate)(?=\s+(?:il|lo|la|i|gli|le|l['’]"
            r"|un|una|uno|l)\b)",
            lead=True,
        ),
        effect_first("per aver", r"(?<=\s)per(?=\s+(?:non\s+)?(?:aver|avere|essere|esser)\s+\w+)"),
        effect_first("grazie a", rf"grazie\s+{_A_IT}", lead=True, not_before="mille tante"),
        effect_first("in seguito a", rf"in\s+seguito\s+{_A_IT}|a\s+seguito\s+{_DI}", lead=True),
        effect_first(
            "per + reato",
            r"(?:licenziat|arrestat|condannat|multat|punit|sanzionat|premiat|denunciat|"
            r"sospes|espuls|ricoverat|indagat|processat|accusat)[oaie](?:\s+[\w'’-]+){0,3}?"
            r"\s+(?P<cue>per)(?!\s+(?:la\s+)?(?:prima|seconda|terza|\d+|anni|mesi|giorni)\b)",
        ),
        effect_first(  # "rinviata per il maltempo": "per" before an event or a condition
            "per il maltempo",
            r"(?<=\s)per(?=\s+(?:il|lo|la|i|gli|le|l['’]|un|una|uno)?\s*(?:\w+\s+)?(?:pioggia|piogge|neve|nevicata|nebbia|sciopero|scioperi|maltempo|temporale|vento|caldo|freddo|siccità|incidente|incidenti|guasto|guasti|incendio|crisi|pandemia|lavori|malattia|infortunio|alluvione|grandine|gelo|ghiaccio|blackout|traffico|mancanza|eccesso|carenza|covid|influenza|ritardo|ritardi|frana|terremoto)\b)",
        ),
        effect_first(
            "morto di",
            r"(?:morto|morta|morì|morirono|muore|muoiono|deceduto|deceduta|piangeva|pianse|"
            r"tremava|tremò)\s+(?P<cue>di|per)(?!\s+(?:nuovo|colpo|sera|notte)\b)",
            not_before="il lo la i gli le un una uno del della dello suo sua",
        ),
        effect_first(
            "per paura",
            r"per(?=\s+(?:pura\s+)?(?:paura|timore|curiosità|gelosia|rabbia|vendetta|protesta|"
            r"noia|abitudine|necessità|rispetto|pietà|vergogna|prudenza|disperazione|fame|"
            r"stanchezza|distrazione|negligenza|invidia)\b)",
            lead=True,
        ),
        effect_first("dovuto a", rf"dovut[oaie]\s+{_W}{_A_IT}"),
        effect_first(
            "causato da",
            rf"(?:causat[oaie]|provocat[oaie]|generat[oaie]|scatenat[oaie])\s+{_W}{_DA}|"
            rf"(?:deriva|derivano|derivò|derivato)\s+{_W}{_DA}",
        ),
        effect_first(
            "è la conseguenza di",
            r"(?:è|sono|era|fu)\s+(?:\w+\s+){0,2}?(?:la\s+|una\s+|il\s+)?(?:\w+\s+)?"
            r"(?:conseguenza|risultato|frutto)\s+"
            rf"{_DI}",
        ),
    ),
    in_turn=in_turn(r"a\s+sua\s+volta|a\s+loro\s+volta"),
    stopwords=words(
        "il lo la i gli le di del della dei delle e è che non un una per con su da sono ha "
        "hanno era anche più ma come se questo questa molto al alla nel nella ci ne si mi"
    ),
    articles=words("il lo la i gli le un uno una l"),
    trailing=words(
        "è sono era erano fu ha hanno aveva avevano stato stata stati può possono anche spesso "
        "probabilmente soprattutto principalmente"
    ),
    leading=words("e ma o poi"),
    coordinators=words("e ed o"),
    finite=words("è sono era erano fu ha hanno aveva avevano può possono rimase rimasero"),
    subject=words("il lo la i gli le un uno una l molti molte tutti"),
    negators=words("non mai né"),
    denials=words("nessun nessuna nessuno niente nulla"),
    unknown=re.compile(
        r"^(?:ancora\s+)?(?:sconosciut[oaie]|ignot[oaie]|incert[oaie]|poco\s+chiar[oaie])",
        re.IGNORECASE,
    ),
    relatives=words("che cui quale quali dove il"),
    demonstratives=words("questo ciò quello"),
    breakers=words("ma però tuttavia sebbene mentre"),
)
