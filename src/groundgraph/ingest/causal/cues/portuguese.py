"""Causal cue table for Portuguese (written for this project)."""

from __future__ import annotations

import re

from groundgraph.ingest.causal.cues.table import (
    CueTable,
    cause_first,
    effect_first,
    in_turn,
    participle_opener,
    words,
)

_W = r"(?:\w+\s+)?"
_A_PT = r"(?:a|ao|à|aos|às)"
_DE_PT = r"(?:de|do|da|dos|das)"

PORTUGUESE = CueTable(
    language="pt",
    stemmer="portuguese",
    cues=(
        participle_opener(
            r"\w{3,}(?:ado|ada|ados|adas|ido|ida|idos|idas)|mordid\w*|rompid\w*|abert\w*|cobert\w*",
            r"nascid\w*|situad\w*|localizad\w*|fundad\w*|construíd\w*|conhecid\w*|publicad\w*|casad\w*|chamad\w*|dedicad\w*|rodead\w*|compost\w*|escrit\w*|equipad\w*|dotad\w*|nomead\w*|querid\w*|prezad\w*|passad\w*|tudo|nada|cada",
        ),
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
            r"(?:resulta|resultam|resultou|resultaram)\s+(?:em|no|na|nos|nas|num|numa)|"
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
        effect_first(  # "multado por dirigir": "por" before an infinitive
            "por",
            r"(?<=\s)por(?=\s+(?:não\s+)?(?:ter\s+\w+|\w{2,}(?:ar|er|ir)(?:-\w+)?)\b)",
        ),
        effect_first("por falta de", rf"por\s+(?:falta|excesso|escassez)\s+{_DE_PT}", lead=True),
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
            rf"dev(?:e|eu|em|eram)[-\s]se,?\s+(?:[\w\s]{{1,25}},\s+)?{_A_PT}|"
            rf"se\s+dev(?:e|eu)\s+{_A_PT}|"
            rf"(?:resulta|resultam|resultou|decorre|decorreu|decorrem)\s+{_W}{_DE_PT}",
        ),
    ),
    in_turn=in_turn(r"por\s+sua\s+vez"),
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
    coordinators=words("e ou"),
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
