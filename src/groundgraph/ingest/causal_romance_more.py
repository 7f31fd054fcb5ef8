"""Causal cue tables for Italian and Portuguese (written for this project; shorter lists)."""

from __future__ import annotations

import re

from groundgraph.ingest.causal_cues import CueTable, cause_first, effect_first, words

_W = r"(?:\w+\s+)?"
_DI = r"(?:di|del|dello|della|dei|degli|delle|dell['’])"
_A_IT = r"(?:a|ad|al|allo|alla|ai|agli|alle|all['’])"
_DA = r"(?:da|dal|dallo|dalla|dai|dagli|dalle|dall['’])"
_A_PT = r"(?:a|ao|à|aos|às)"
_DE_PT = r"(?:de|do|da|dos|das)"

ITALIAN = CueTable(
    language="it",
    stemmer="italian",
    cues=(
        cause_first(
            "causa",
            r"(?:causa|causano|causò|causato|causata|causati|causate|causava|causavano|causerà|"
            rf"causare|causando)(?!\s+(?:{_DI}|da)\b)",
            not_before="la una le sua principale vera a",
        ),
        cause_first(
            "provoca",
            r"(?:provoca|provocano|provocò|provocato|provocata|provocati|provocate|provocava|"
            r"provocherà|provocare|provocando|genera|generano|generò|generato|scatena|scatenano|"
            r"scatenò|scatenato)(?!\s+da\b)",
        ),
        cause_first(
            "porta a",
            r"(?:porta|portano|portò|portato|portava|portavano|porterà|portare|portando|conduce|"
            rf"conducono|condusse|condotto)\s+{_W}{_A_IT}(?!\s+casa\b)",
        ),
        cause_first("fa sì che", r"(?:fa|fanno|fece|fatto)\s+sì\s+che"),
        cause_first("per cui", r"per\s+cui", link=True),
        cause_first(
            "quindi",
            r"quindi|perciò|pertanto|di\s+conseguenza|per\s+questo(?:\s+motivo)?|ecco\s+perché",
            adverb=True,
        ),
        effect_first("perché", lead=True),
        effect_first(
            "poiché", r"poiché|siccome|dato\s+che|visto\s+che|giacché|per\s+via\s+di", lead=True
        ),
        effect_first("a causa di", rf"a\s+causa\s+{_DI}", lead=True),
        effect_first("grazie a", rf"grazie\s+{_A_IT}", lead=True, not_before="mille tante"),
        effect_first("in seguito a", rf"in\s+seguito\s+{_A_IT}|a\s+seguito\s+{_DI}", lead=True),
        effect_first("dovuto a", rf"dovut[oaie]\s+{_W}{_A_IT}"),
        effect_first(
            "causato da",
            rf"(?:causat[oaie]|provocat[oaie]|generat[oaie]|scatenat[oaie])\s+{_W}{_DA}|"
            rf"(?:deriva|derivano|derivò|derivato)\s+{_W}{_DA}",
        ),
        effect_first(
            "è la conseguenza di",
            r"(?:è|sono|era|fu)\s+(?:la|una|il)\s+(?:\w+\s+)?(?:conseguenza|risultato|frutto)\s+"
            rf"{_DI}",
        ),
    ),
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

PORTUGUESE = CueTable(
    language="pt",
    stemmer="portuguese",
    cues=(
        cause_first(
            "causa",
            r"(?:causa|causam|causou|causaram|causado|causada|causados|causadas|causava|causará|"
            r"causar|causando)(?!\s+por\b)",
            not_before="a uma sua principal verdadeira por",
        ),
        cause_first(
            "provoca",
            r"(?:provoca|provocam|provocou|provocaram|provocado|provocada|provocava|provocará|"
            r"provocar|provocando|gera|geram|gerou|geraram|desencadeou|desencadeia|ocasionou|"
            r"ocasiona)(?!\s+por\b)",
        ),
        cause_first(
            "leva a",
            r"(?:leva|levam|levou|levaram|levado|levava|levará|levar|levando|conduz|conduziu|"
            rf"conduziram)\s+{_W}{_A_PT}(?!\s+(?:sua|seu|seus|suas|casa)\b)",
            reject=r"\b(?:caminho|estrada|rua|porta|escada|ponte|trilha)s?\s+(?:\w+\s+)?"
            r"(?:leva|levam|conduz)",
        ),
        cause_first(
            "resultou em",
            r"(?:resulta|resultam|resultou|resultaram)\s+(?:em|no|na|nos|nas)|"
            rf"(?:dá|dão|deu|deram|dado|dava|dar)\s+origem\s+{_A_PT}",
        ),
        cause_first("fez com que", r"(?:faz|fazem|fez|fizeram|feito|fazia|fará|fazer)\s+com\s+que"),
        cause_first("de modo que", r"de\s+(?:modo|maneira|forma)\s+que", link=True),
        cause_first(
            "portanto",
            r"portanto|por\s+isso|por\s+conseguinte|consequentemente|"
            r"em\s+consequência(?!\s+d)|como\s+resultado(?!\s+d)|por\s+(?:esse|este)\s+motivo|"
            r"por\s+esta\s+razão|daí\s+que",
            adverb=True,
        ),
        effect_first("porque", lead=True),
        effect_first("pois", link=True),
        effect_first("já que", r"já\s+que|uma\s+vez\s+que|visto\s+que|dado\s+que", lead=True),
        effect_first("devido a", rf"devido\s+{_A_PT}", lead=True),
        effect_first("por causa de", rf"por\s+causa\s+{_DE_PT}", lead=True),
        effect_first("graças a", rf"graças\s+{_A_PT}", lead=True),
        effect_first(
            "em consequência de",
            rf"(?:em|como)\s+(?:consequência|resultado)\s+{_DE_PT}|em\s+(?:razão|virtude)\s+"
            rf"{_DE_PT}",
            lead=True,
        ),
        effect_first(
            "como",
            r"^como(?!\s+(?:sempre|de\s+costume|se\s+\w+|era\s+de\s+esperar|já\s+\w+|sabes|"
            r"sabe|disse|dizia|te\s+\w+|em\s+\w+|siempre)\b)(?=[^,]*,)",
            lead=True,
        ),
        effect_first(
            "causado por",
            r"(?:causad[oa]s?|provocad[oa]s?|ocasionad[oa]s?|gerad[oa]s?|desencadead[oa]s?)"
            rf"\s+{_W}por",
        ),
        effect_first(
            "deve-se a",
            rf"deve(?:u)?[-\s]se\s+{_A_PT}|se\s+dev(?:e|eu)\s+{_A_PT}|"
            rf"(?:resulta|resultam|resultou|decorre|decorreu|decorrem)\s+{_W}{_DE_PT}",
        ),
    ),
    stopwords=words(
        "o a os as de do da dos das e é que em um uma por com para não no na nos nas se seu "
        "sua ao mais mas foi como ele ela eles também muito já está estava são ser tem há isso "
        "isto pelo pela"
    ),
    articles=words("o a os as um uma uns umas"),
    trailing=words(
        "é são foi foram era eram está estava tem têm tinha tinham pode podem também "
        "principalmente provavelmente"
    ),
    leading=words("e mas ou então"),
    finite=words("é são foi foram era eram está estava ficou ficaram tem têm tinha pode podem"),
    subject=words("o a os as um uma este esta muitos muitas todos"),
    negators=words("não nunca jamais nem"),
    denials=words("nenhum nenhuma nada"),
    unknown=re.compile(
        r"^(?:ainda\s+)?(?:desconhecid[oa]s?|incert[oa]s?|pouco\s+clar[oa])", re.IGNORECASE
    ),
    relatives=words("que quem qual quais onde cujo cuja"),
    demonstratives=words("isso isto aquilo"),
    breakers=words("mas porém contudo embora enquanto"),
    letters="ãõ",
)
