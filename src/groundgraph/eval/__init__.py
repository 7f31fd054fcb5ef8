"""Evaluation: dataset loaders and runners. Never imported by search or reason.

- ``questions``: the JSONL question file (``{"id", "question", "relevant": [doc ids]}``)
- ``datasets``: passages and questions from MuSiQue, HotpotQA/2Wiki and ``{title, text}``
  corpora; ``add_passages`` puts a corpus into a graph
- ``beir``: BEIR folders (``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv``)
- ``metrics``: precision, recall (HippoRAG's passage recall), MRR and nDCG at k, bootstrap
  intervals, latency percentiles
- ``runner``: ``evaluate(graph, questions, configs)``, several configurations in one table
- ``clutrr``, ``clutrr_data``: CLUTRR kinship reasoning
"""
