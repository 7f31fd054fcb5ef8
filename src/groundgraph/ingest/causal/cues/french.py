"""Causal cue table for French (written for this project)."""

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

_DE = r"(?:de|du|des|d['’])"  # French "of", elided or not
_QUE = r"(?:que|qu(?=['’]))"
_MOTIVE = (
    r"(?:pure\s+)?(?:peur|crainte|jalousie|curiosité|colère|vengeance|dépit|ennui|habitude|"
    r"nécessité|respect|pitié|honte|prudence|précaution|désespoir|négligence|lassitude|"
    r"fatigue|manque|inadvertance|souci|orgueil|envie|solidarité|protestation)"
)
_SANCTION = (
    r"(?:licencié|arrêté|interpellé|condamné|puni|sanctionné|verbalisé|"
    r"poursuivi|mis\s+en\s+examen|inculpé|accusé|hospitalisé|suspendu|exclu|expulsé|"
    r"récompensé|félicité|décoré|remercié|critiqué|blâmé|amendé|disqualifié|incarcéré|"
    r"emprisonné|jugé|connu|célèbre|réputé)(?:e|s|es)?"
)

FRENCH = CueTable(
    language="fr",
    stemmer="french",
    cues=(
        participle_opener(
            r"\w{3,}(?:é|ée|és|ées)|piqué\w*|mordu\w*|surpris\w*|pris\w*|battu\w*|vaincu\w*",
            r"né|née|nés|nées|situé\w*|fondé\w*|construit\w*|installé\w*|publié\w*|basé\w*|connu\w*|créé\w*|marié\w*|composé\w*|entouré\w*|réalisé\w*|écrit\w*|équipé\w*|doté\w*|appelé\w*|nommé\w*|désolé\w*",
        ),
        cause_first(
            "entraîne",
            r"(?:entraîne|entraînent|entraîné|entraînée|entraînés|entraînées|entraînait|"
            r"entraînaient|entraînera|entraîner|entraînant)(?!\s+par\b)",
        ),
        cause_first(
            "provoque",
            r"(?:provoque|provoquent|provoqué|provoquée|provoqués|provoquées|provoquait|"
            r"provoquaient|provoquera|provoquer|provoquant|occasionne|occasionné|occasionnent|"
            r"engendre|engendré|engendrent|engendrait|favorise|favorisent|favorisé|favorisait)"
            r"(?!\s+par\b)",
        ),
        cause_first(
            "cause",
            r"(?:cause|causent|causé|causée|causés|causées|causait|causaient|causera|causer|"
            r"causant)(?!\s+par\b)(?<!en\scause)",
            not_before="la une les des principale vraie même seule première à l",
        ),
        cause_first(
            "conduit à",
            r"(?:conduit|conduisent|conduisait|conduisaient|conduira|conduire|conduisant|mène|"
            rf"mènent|mené|menait|menaient|mènera|mener|menant)(?:\s+{_W}|{_ASIDE})(?:à|au|aux)",
            reject=r"\b(?:chemin|route|rue|sentier|porte|escalier|pont|couloir|tunnel|allée|"
            r"passage|piste|autoroute)s?\s+(?:\w+\s+)?(?:mène|mènent|menait|conduit)",
        ),
        cause_first(
            "pousse à",
            r"(?:pousse|poussent|poussé|poussée|poussait|poussaient|poussera|pousser|poussant|"
            r"conduit|conduisent|conduisait|conduira|amène|amènent|amené|amenait|oblige|"
            r"obligent|obligé|obligeait|obligera|contraint|contraignent|contraignait|force|"
            r"forcent|forcé|forçait|incite|incitent|incité|incitait)"
            r"(?=\s+(?:[\w'’-]+\s+){1,7}?(?:à|au|aux)\s)",
            not_before="la une sa leur cette de en est sont était été",
        ),
        cause_first(
            "fait + infinitif",
            r"(?:fait|font|faisait|faisaient|fera|feront|faire|faisant)(?=\s+(?:\w+\s+)?"
            r"(?:baisser|monter|chuter|grimper|augmenter|diminuer|fondre|tomber|exploser|"
            r"flamber|reculer|fuir|pleurer|rire|fermer|perdre|échouer|dérailler|déborder|"
            r"craquer|céder|sauter|disparaître|changer|bondir|plonger|gonfler|rougir|trembler|"
            r"souffrir|s['’]effondrer|s['’]envoler|dégringoler|capoter|annuler|paniquer)\b)",
            not_before="le un en du au ce tout",
        ),
        cause_first(
            "aboutit à",
            r"(?:aboutit|aboutissent|abouti|aboutissait|aboutira|aboutir)\s+(?:à|au|aux)|"
            r"(?:se\s+solde|se\s+soldent|s['’]est\s+soldée?s?|se\s+soldait)\s+par|"
            r"(?:contribue|contribuent|contribué|contribuait|contribuer)\s+(?:à|au|aux)|"
            r"(?:suscite|suscitent|suscité|suscitée|suscitait|susciter)",
        ),
        cause_first(
            "prive de",
            r"(?:privé|prive|privent|privait|privera)(?=\s+(?:de|d['’]))|"
            r"(?:laissé|laisse|laissent|laissait)(?=\s+[^,;:.!?]{1,50}?\s+sans\b)",
            not_before="est sont était été",
        ),
        cause_first(
            "coûte son emploi",
            r"(?:coûté|coûte|coûtent|coûtait|coûtera)(?=\s+(?:\w+\s+){0,2}?(?:son|sa|ses|leur|"
            r"leurs|la|le)\s+(?:\w+\s+)?(?:emploi|vie|poste|place|siège|titre|travail|carrière|"
            r"permis|victoire|liberté|mandat|fauteuil)\b)",
        ),
        cause_first(
            "déclenche",
            r"(?:déclenche|déclenchent|déclenché|déclenchée|déclenchés|déclenchées|déclenchait|"
            r"déclenchera|déclencher|déclenchant)(?!\s+par\b)",
        ),
        cause_first(
            "donne lieu à",
            r"(?:donne|donnent|donné|donnait|donnera|donner)\s+lieu\s+(?:à|au|aux)",
        ),
        cause_first(
            "est la cause de",
            r"(?:est|sont|était|étaient|fut|a\s+été)\s+(?:à\s+)?(?:la|une|l['’])\s*(?:\w+\s+)?"
            rf"(?:cause|origine|raison)\s+{_DE}",
        ),
        cause_first(
            "a pour conséquence",
            r"(?:a|ont|avait|avaient|aura)\s+(?:eu\s+)?pour\s+(?:conséquence|effet|résultat)"
            rf"(?:\s+{_DE}|\s+{_QUE})?",
        ),
        cause_first("se traduit par", r"se\s+(?:traduit|traduisent|traduisait|traduira)\s+par"),
        cause_first(
            "rend",
            r"(?:rend|rendent|rendu|rendait|rendaient|rendra|rendre)(?=(?:\s+[\w'’-]+){1,3}\s+"
            r"(?:plus|moins|impossible|difficile|possible|malade|inutilisable|dangereux|"
            r"dangereuse|fragile|vulnérable|\w+(?:able|ible|eux|euse|if|ive)s?)\b)",
        ),
        cause_first(
            "si bien que",
            rf"(?:tant\s+et\s+)?si\s+bien\s+{_QUE}|de\s+(?:telle\s+)?sorte\s+{_QUE}",
        ),
        cause_first("tellement … que", rf"tellement\s+(?:\w+\s+){{0,2}}?\w+\s+(?P<cue>{_QUE})"),
        cause_first(
            "donc",
            rf"donc|par\s+conséquent|c['’]est\s+(?:pourquoi|pour\s+(?:cela|ça)\s+{_QUE})|"
            r"ainsi(?!\s+qu)|en\s+conséquence(?!\s+d)|de\s+ce\s+fait|du\s+coup|"
            r"pour\s+(?:cette|ces)\s+raisons?|voilà\s+pourquoi|dès\s+lors(?!\s+qu)|"
            r"par\s+voie\s+de\s+conséquence|conséquemment|partant|c['’]est\s+la\s+raison\s+"
            r"pour\s+laquelle",
            adverb=True,
        ),
        cause_first("alors", r"(?<=,\s)alors(?!\s+qu)"),  # ", alors Y"; "alors que" is "while"
        cause_first("d'où", r"d['’]où(?!\s+(?:vient|viennent|venait|êtes|es|est)\b)", link=True),
        cause_first("au point que", rf"(?:au\s+point|à\s+tel\s+point)\s+{_QUE}"),
        effect_first("parce que", rf"parce\s+{_QUE}", lead=True),
        effect_first("car", link=True, not_before="le un du en ce mon ton son notre votre au"),
        effect_first("puisque", r"puisque|puisqu(?=['’])", lead=True),
        effect_first(
            "comme",
            r"^comme(?=\s+(?:il|elle|ils|elles|on|nous|vous|je|j['’]|tu|le|la|les|l['’]|c['’]|"
            r"ce|cet|cette|ces|un|une|des|mon|ma|mes|son|sa|ses|notre|nos|leur|leurs|personne|"
            r"rien|tout|aucun|aucune)\b)",
            lead=True,
        ),
        effect_first("à cause de", rf"à\s+cause\s+{_DE}", lead=True),
        effect_first(
            "pour avoir", r"(?<=\s)pour(?=\s+(?:ne\s+pas\s+)?(?:avoir|être)\s+\w+[éiust]e?s?\b)"
        ),
        effect_first("en raison de", rf"en\s+raison\s+{_DE}", lead=True),
        effect_first(
            "faute de",
            rf"faute\s+{_DE}|à\s+force\s+{_DE}|par\s+manque\s+{_DE}|sous\s+l['’]effet\s+{_DE}|"
            rf"sous\s+(?:le\s+poids|la\s+pression)\s+{_DE}|"
            rf"compte\s+tenu\s+{_DE}|eu\s+égard\s+à|au\s+vu\s+{_DE}|"
            rf"dès\s+lors\s+{_QUE}|d['’]autant\s+(?:plus\s+)?{_QUE}|sous\s+prétexte\s+{_QUE}",
            lead=True,
        ),
        effect_first("par peur", rf"par(?=\s+{_MOTIVE}\b)", lead=True),
        effect_first(  # "mort d'un cancer", "pleurait de joie"
            "mort de",
            r"(?:mort|morte|morts|mortes|meurt|meurent|mourut|mourir|décédée?s?|pleurait|pleure|"
            r"pleuraient|tremblait|tremble|tremblaient|rougit|rougissait|souffre|souffrait|"
            r"souffrent)\s+(?P<cue>d['’]|de|du|des)(?!\s+(?:nouveau|suite|temps|rien)\b)",
            not_before="la le les l un une sa son ses leur cette ce du de des",
        ),
        effect_first(
            "pour + faute",
            rf"{_SANCTION}(?:\s+[\w'’-]+){{0,3}}?\s+(?P<cue>pour)"
            r"(?!\s+(?:la\s+)?(?:première|deuxième|seconde|troisième|\d+|ans|mois|jours|la\s+vie)\b)"
            r"(?!\s+(?:avoir|être)\b)",
        ),
        effect_first("en effet", r"(?:^|(?<=[;:]\s))en\s+effet", link=True),
        effect_first(
            "la raison en est",
            r"^\W*(?:la\s+(?:raison|cause)|le\s+motif)\s+(?:en\s+)?(?:est|était|fut)(?:\s+simple\s*:)?"
            rf"(?:\s+{_QUE})?",
            link=True,
        ),
        effect_first("grâce à", r"grâce\s+(?:à|au|aux)", lead=True),
        effect_first(
            "suite à",
            rf"(?:suite|à\s+la\s+suite)\s+(?:à|au|aux|{_DE})|par\s+suite\s+{_DE}",
            lead=True,
        ),
        effect_first("du fait de", rf"du\s+fait\s+(?:{_DE}|{_QUE})", lead=True),
        effect_first(
            "étant donné que",
            rf"étant\s+donnée?s?(?:\s+{_QUE})?|vu\s+{_QUE}|en\s+conséquence\s+{_DE}",
            lead=True,
        ),
        effect_first(
            "causé par",
            r"(?:causée?s?|provoquée?s?|déclenchée?s?|engendrée?s?|entraînée?s?|"
            rf"occasionnée?s?)\s+{_W}par",
        ),
        effect_first("dû à", rf"(?:dû|due|dus|dues)\s+{_W}(?:à|au|aux)"),
        effect_first(
            "résulte de",
            r"(?:résulte|résultent|résultait|résultaient|résultera|découle|découlent|découlait|"
            r"provient|proviennent|provenait|provenaient)"
            rf"\s+{_W}{_DE}",
        ),
        effect_first(
            "est la conséquence de",
            r"(?:est|sont|était|étaient|fut)\s+(?:la|le|une|un|l['’])\s*(?:\w+\s+)?"
            rf"(?:conséquence|résultat|fruit|effet)\s+{_DE}",
        ),
        effect_first(
            "s'explique par",
            rf"s['’](?:explique|expliquent|expliquait|expliquaient)\s+(?:en\s+)?{_W}par",
        ),
        effect_first(
            "la cause de",
            rf"(?:la|une)\s+{_W}(?:cause|raison|origine)\s+{_DE}\s*(?P<effect>{_SPAN})\s+"
            r"(?:est|était|fut|sont|reste|demeure)",
        ),
    ),
    in_turn=in_turn(r"à\s+son\s+tour|à\s+leur\s+tour|(?:lui|elle|eux|elles)-mêmes?"),
    stopwords=words(
        "le la les de des du un une et est en que qui dans pour pas sur par ne il elle ils "
        "elles au aux ce cette été sont nous vous avec mais ou plus se son sa ses leur leurs "
        "était ont on je tu mon ma mes très tout comme être avait sans aussi"
    ),
    articles=words("le la les l un une des du d"),
    trailing=words(
        "est sont était étaient été a ont avait avaient fut sera peut peuvent pourrait aussi "
        "souvent surtout principalement probablement finalement directement notamment "
        "partiellement"
    ),
    leading=words("et mais ou puis alors"),
    coordinators=words("et ou"),
    finite=words(
        "est sont était étaient a ont avait avaient fut furent sera seront peut pouvait doit "
        "devait reste restait"
    ),
    subject=words(
        "le la les l un une des il elle ils elles on nous vous je j ce cette ces mon ma mes son "
        "sa ses notre nos leur leurs plusieurs beaucoup"
    ),
    negators=words("pas ne n jamais aucun aucune guère point"),
    denials=words("aucun aucune aucuns rien"),
    unknown=re.compile(
        r"^(?:encore\s+|toujours\s+)?(?:inconnue?s?|indéterminée?s?|incertaine?s?|floue?s?|"
        r"mystérieuse?s?|inexpliquée?s?)",
        re.IGNORECASE,
    ),
    relatives=words("qui que qu dont où lequel laquelle lesquels lesquelles ce"),
    demonstratives=words("cela ceci ça"),
    breakers=words("mais cependant pourtant quoique tandis toutefois"),
    letters="œ",
)
