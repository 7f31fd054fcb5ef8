"""Causal cue table for Portuguese (written for this project)."""

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
            not_before="a à uma sua principal verdadeira por pela na da",
        ),
        cause_first(
            "provoca",
            r"(?:provoca|provocam|provocou|provocaram|provocado|provocada|provocava|provocará|"
            r"provocar|provocando|gera|geram|gerou|geraram|desencadeou|desencadeia|ocasionou|"
            r"ocasiona|acarreta|acarretam|acarretou|acarretaram|acarretar|origina|originou|"
            r"originaram|produziu|produziram|produz|provocaram|causaram|ocasionaram|"
            r"desencadearam|motivou|motivaram)(?!\s+por\b)",
        ),
        cause_first(
            "leva a",
            r"(?:leva|levam|levou|levaram|levado|levava|levará|levar|levando|conduz|conduziu|"
            rf"conduziram)\s+{_W}{_A_PT}(?!\s+(?:sua|seu|seus|suas|casa|pressas)\b)",
            not_before="foi foram é são ser sido era eram seria",
            reject=r"\b(?:caminho|estrada|rua|porta|escada|ponte|trilha)s?\s+(?:\w+\s+)?"
            r"(?:leva|levam|conduz)",
        ),
        cause_first(
            "resultou em",
            r"(?:resulta|resultam|resultou|resultaram)\s+(?:em|no|na|nos|nas|num|numa)|"
            rf"(?:dá|dão|deu|deram|dado|dava|dar)\s+origem\s+{_A_PT}",
        ),
        cause_first("fez com que", r"(?:faz|fazem|fez|fizeram|feito|fazia|fará|fazer)\s+com\s+que"),
        cause_first(
            "contribuiu para",
            r"(?:contribui|contribuem|contribuiu|contribuíram|contribuído)\s+para",
        ),
        cause_first(
            "obrigou a",
            r"(?:obriga|obrigam|obrigou|obrigaram|obrigado|força|forçam|forçou|forçaram|levou|"
            r"levaram|induziu|induziram)(?=\s+(?:[\w'’-]+\s+){0,6}?(?:a|ao|à)\s+\w+(?:ar|er|ir)\b)",
            not_before="foi foram é são ser sido era eram a",
        ),
        cause_first(
            "fez + infinitivo",
            r"(?:faz|fazem|fez|fizeram|fazia)(?=\s+(?:\w+\s+){0,3}?(?:cair|subir|descer|aumentar|"
            r"diminuir|disparar|explodir|desabar|fugir|chorar|rir|derreter|perder|quebrar|"
            r"despencar|crescer|tremer|adoecer)\b)",
        ),
        cause_first(
            "deixou sem",
            r"(?:deixa|deixam|deixou|deixaram|deixando)(?=(?:\s+[^,;:.!?]{1,50}?)?\s+sem\b)",
        ),
        cause_first(
            "custou o emprego",
            r"(?:custou|custa|custaram)(?=\s+(?:\w+\s+){0,2}?(?:o|a|seu|sua)\s+(?:\w+\s+)?"
            r"(?:emprego|vida|cargo|posto|trabalho|carreira|título|vitória|liberdade|mandato)\b)",
        ),
        cause_first("de modo que", r"de\s+(?:modo|maneira|forma)\s+que", link=True),
        cause_first(
            "tanto que",
            r"(?:tanto|a\s+ponto\s+de|de\s+tal\s+(?:modo|forma|maneira))\s+que|"
            r"t(?:ão|anto|anta|antos|antas)\s+(?:\w+\s+){0,2}?\w+\s+(?P<cue>que)",
        ),
        cause_first(
            "é a causa de",
            r"(?:é|são|foi|foram|era|eram)\s+(?:a|uma|o)\s+(?:\w+\s+)?(?:causa|origem|razão|"
            rf"motivo)\s+{_DE_PT}",
        ),
        cause_first(
            "logo",
            r"(?<=,\s)(?:logo|então|assim)(?=\s+(?:o|a|os|as|um|uma|\w+))(?!\s+(?:depois|após|que|em\s+seguida)\b)",
            link=True,
        ),
        cause_first(
            "portanto",
            r"portanto|por\s+isso|por\s+conseguinte|consequentemente|"
            r"em\s+consequência(?!\s+d)|como\s+resultado(?!\s+d)|por\s+(?:esse|este)\s+motivo|"
            r"por\s+(?:esta|essa)\s+razão|daí(?:\s+que)?|dessa\s+forma|desse\s+modo|"
            r"assim\s+sendo|por\s+consequência|em\s+decorrência\s+disso",
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
        effect_first(
            "por causa de",
            rf"por\s+(?:causa|culpa|conta|motivo)\s+{_DE_PT}|em\s+(?:decorrência|função|virtude)\s+"
            rf"{_DE_PT}|haja\s+vista|porquanto",
            lead=True,
        ),
        effect_first(
            "por + delito",
            r"(?:demitid|pres|condenad|multad|punid|suspens|expuls|internad|acusad|processad|"
            r"premiad|detid)[oa]s?(?:\s+[\w'’-]+){0,3}?\s+(?P<cue>por)"
            r"(?!\s+(?:a\s+)?(?:primeira|segunda|terceira|\d+|anos|meses|dias)\b)",
        ),
        effect_first(  # "cancelado pela chuva": "por" before an event or a condition
            "pela chuva",
            r"(?<=\s)(?:por|pela|pelo|pelas|pelos)(?=\s+(?:o|a|os|as|um|uma)?\s*(?:\w+\s+)?(?:chuva|chuvas|neve|nevoeiro|neblina|greve|greves|tempestade|temporal|vento|ventos|calor|frio|seca|acidente|acidentes|falha|falhas|pane|incêndio|incêndios|crise|pandemia|obras|doença|lesão|enchente|enchentes|granizo|geada|apagão|trânsito|falta|excesso|escassez|covid|gripe|atraso|atrasos|deslizamento|terremoto)\b)",
        ),
        effect_first(
            "morreu de",
            r"(?:morreu|morreram|morre|morrem|morto|morta|faleceu|faleceram|falecido|chorava|"
            r"chorou|tremia|tremeu)\s+(?P<cue>de)(?!\s+(?:novo|repente|pé)\b)",
            not_before="o a os as um uma seu sua do da",
        ),
        effect_first(
            "por medo",
            r"por(?=\s+(?:puro\s+|pura\s+)?(?:medo|receio|curiosidade|ciúmes?|raiva|vingança|"
            r"protesto|tédio|hábito|necessidade|respeito|pena|vergonha|precaução|desespero|fome|"
            r"cansaço|distração|negligência|inveja)\b)",
            lead=True,
        ),
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
            r"\s+(?:por\s+sua\s+vez\s+|em\s+(?:boa|grande)\s+parte\s+|\w+\s+)?(?:por|pel[oa]s?)\b",
        ),
        effect_first(
            "é consequência de",
            r"(?:é|foi|são|foram|era|eram|será)\s+(?:uma\s+|a\s+)?(?:\w+\s+)?"
            rf"(?:consequência|resultado|fruto)\s+(?:direta\s+|direto\s+)?{_DE_PT}",
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
    demonstratives=words("isso isto aquilo algo"),
    breakers=words("mas porém contudo embora enquanto"),
    letters="ãõ",
)
