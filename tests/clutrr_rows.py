"""Made-up CLUTRR rows in both CSV layouts, shared by the evaluation and CLI tests."""

from __future__ import annotations

import csv
import io

HF_COLUMNS = [
    "",
    "id",
    "story",
    "query",
    "target",
    "target_text",
    "clean_story",
    "proof_state",
    "f_comb",
    "task_name",
    "story_edges",
    "edge_types",
    "query_edge",
    "genders",
    "task_split",
]
EMNLP_COLUMNS = [
    "",
    "id",
    "story",
    "query",
    "text_query",
    "target",
    "text_target",
    "clean_story",
    "proof_state",
    "f_comb",
    "task_name",
    "story_edges",
    "edge_types",
    "query_edge",
    "genders",
    "syn_story",
    "node_mapping",
    "task_split",
]


def story(
    row_id: str, edges: str, types: str, query: str, genders: str, target: str, hops: int
) -> dict[str, str]:
    return {
        "id": row_id,
        "story": "A made-up story.",
        "task_name": f"task_1.{hops}",
        "story_edges": edges,
        "edge_types": types,
        "query_edge": query,
        "genders": genders,
        "target": target,
    }


VALIDATION = [
    story("v1", "[(0, 1), (1, 2)]", "['father', 'brother']", "(0, 2)",
          "Ann:female,Bob:male,Cid:male", "uncle", 2),
    story("v2", "[(0, 1), (1, 2)]", "['son', 'wife']", "(0, 2)",
          "Dan:male,Eli:male,Fay:female", "daughter-in-law", 2),
    story("v3", "[(0, 1), (1, 2), (2, 3)]", "['father', 'brother', 'wife']", "(0, 3)",
          "Gus:male,Hal:male,Ian:male,Joy:female", "aunt", 3),
]  # fmt: skip
TEST = [
    story("t1", "[(0, 1), (1, 2), (2, 3)]", "['father', 'brother', 'wife']", "(0, 3)",
          "Kim:female,Lou:male,Max:male,Ned:female", "aunt", 3),
    story("t2", "[(0, 1), (1, 2)]", "['son', 'wife']", "(0, 2)",
          "Oli:male,Pat:male,Quy:female", "daughter-in-law", 2),
    story("t3", "[(0, 1), (1, 0), (0, 2), (2, 3)]", "['husband', 'wife', 'father', 'brother']",
          "(0, 3)", "Rae:female,Sam:male,Tom:male,Uli:male", "uncle", 4),
    story("t4", "[(0, 1), (1, 2)]", "['sister', 'husband']", "(0, 2)",
          "Vic:female,Wen:female,Xav:male", "brother-in-law", 2),
]  # fmt: skip


def hf_csv(rows: list[dict[str, str]], bom: bool = False) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, HF_COLUMNS)
    writer.writeheader()
    for i, row in enumerate(rows):
        record = {**row, "": str(i), "target": "7", "target_text": row["target"]}
        writer.writerow(record)
    return ("\ufeff" if bom else "") + out.getvalue()


def emnlp_csv(rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, EMNLP_COLUMNS)
    writer.writeheader()
    for i, row in enumerate(rows):
        writer.writerow({**row, "": str(i), "text_target": "['A sentence.']"})
    return out.getvalue()
