"""The verifier as a function-calling tool: one stateless call per claim.

An agent sends the facts it trusts and the claim it is about to make; the tool answers
with the verdict, its proof and how many facts it could not read. Specs are given in the
Anthropic form (``TOOL_SPEC``) and the OpenAI form (``openai_tool_spec()``); ``run_tool``
executes a call. Inputs come from a model, so they are checked and capped: at most
``MAX_FACTS`` facts and strings of at most ``MAX_STRING_LENGTH`` characters.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.model.valid_text import valid_text
from groundgraph.reason.relations.verifier import GroundedReasoner

TOOL_NAME = "verify_relation"
MAX_FACTS = 100_000
MAX_STRING_LENGTH = 1_000
MAX_JSON_LENGTH = 50_000_000  # characters of a JSON-text input

_CLAIM_FIELDS = ("subject", "relation", "object")

TOOL_SPEC: dict[str, Any] = {
    "name": TOOL_NAME,
    "description": (
        "Check a multi-hop relation claim against facts before stating it. Give the facts "
        "you trust as [subject, relation, object] triples, each meaning 'object is the "
        "relation of subject', and the claim 'object is the relation of subject'. The "
        "claim is grounded only if a chain of facts with that relation leads from subject "
        "to object; the answer then carries the proof path. Ungrounded claims should not "
        "be stated. Costs no model tokens."
    ),
    "input_schema": {
        "type": "object",
        "properties": {
            "facts": {
                "type": "array",
                "description": "Known facts, each [subject, relation, object].",
                "maxItems": MAX_FACTS,
                "items": {
                    "type": "array",
                    "items": {"type": "string", "maxLength": MAX_STRING_LENGTH},
                    "minItems": 3,
                    "maxItems": 3,
                },
            },
            "subject": {
                "type": "string",
                "description": "Where the chain starts.",
                "maxLength": MAX_STRING_LENGTH,
            },
            "relation": {
                "type": "string",
                "description": "The relation to follow, any number of hops: 'parent', 'is_a'.",
                "maxLength": MAX_STRING_LENGTH,
            },
            "object": {
                "type": "string",
                "description": "Where the chain must end.",
                "maxLength": MAX_STRING_LENGTH,
            },
        },
        "required": ["facts", "subject", "relation", "object"],
    },
}


def openai_tool_spec() -> dict[str, Any]:
    """The same tool in the OpenAI function-calling form (a fresh copy)."""
    return {
        "type": "function",
        "function": {
            "name": TOOL_SPEC["name"],
            "description": TOOL_SPEC["description"],
            "parameters": copy.deepcopy(TOOL_SPEC["input_schema"]),
        },
    }


def _claim_field(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InputError(f"{name} must be a string, got {type(value).__name__}")
    if len(value) > MAX_STRING_LENGTH:
        raise InputTooLargeError(name, len(value), MAX_STRING_LENGTH, "use a shorter name")
    text = valid_text(value).text.strip()  # as a stored relation fact's names are
    if not text:
        raise InputError(f"{name} is empty")
    return text


def check_claim(subject: object, relation: object, object: object) -> tuple[str, str, str]:
    """The claim's three names, stripped; an InputError for one that is not a non-empty
    string, an InputTooLargeError for one over ``MAX_STRING_LENGTH``."""
    a, b, c = (
        _claim_field(name, value)
        for name, value in zip(_CLAIM_FIELDS, (subject, relation, object), strict=True)
    )
    return a, b, c


def _read_fact(index: int, fact: object) -> tuple[str, str, str] | None:
    """The fact with whitespace stripped, or None if it is malformed (and so skipped)."""
    if not isinstance(fact, (list, tuple)) or len(fact) != 3:
        return None
    if not all(isinstance(part, str) for part in fact):
        return None
    for part in fact:
        if len(part) > MAX_STRING_LENGTH:
            raise InputTooLargeError(
                f"a string in fact #{index}", len(part), MAX_STRING_LENGTH, "use shorter names"
            )
    s, r, o = (valid_text(part).text.strip() for part in fact)
    if not (s and r and o):
        return None
    return (s, r, o)


def verify_relation(
    facts: object, subject: object, relation: object, object: object
) -> dict[str, Any]:
    """Verdict on "object is the relation of subject" from these facts alone, as JSON.

    Whitespace around names is stripped. Facts that are not three non-empty strings are
    skipped and counted in ``skipped_facts``; oversized input raises InputTooLargeError.
    """
    claim = check_claim(subject, relation, object)
    if not isinstance(facts, (list, tuple)):
        raise InputError(
            f"facts must be a list of [subject, relation, object], got {type(facts).__name__}"
        )
    if len(facts) > MAX_FACTS:
        raise InputTooLargeError(
            "facts", len(facts), MAX_FACTS, "send only the facts the claim needs"
        )
    reasoner = GroundedReasoner()
    skipped = 0
    for index, fact in enumerate(facts):
        triple = _read_fact(index, fact)
        if triple is None:
            skipped += 1
        else:
            reasoner.add_fact(*triple)
    result = reasoner.verify(claim[0], claim[2], via=claim[1]).as_dict()
    result["skipped_facts"] = skipped
    return result


def run_tool(tool_input: object) -> dict[str, Any]:
    """Execute a ``verify_relation`` call.

    Takes the tool's input object, a tool-use block ``{"name": …, "input": {…}}``, or
    either as JSON text (parsed as JSON, never evaluated).
    """
    if isinstance(tool_input, (str, bytes)):
        if len(tool_input) > MAX_JSON_LENGTH:
            raise InputTooLargeError("tool input", len(tool_input), MAX_JSON_LENGTH)
        try:
            tool_input = json.loads(tool_input)
        except (ValueError, RecursionError) as error:
            raise InputError(f"tool input is not valid JSON: {error}") from None
    if not isinstance(tool_input, Mapping):
        raise InputError(f"tool input must be a JSON object, got {type(tool_input).__name__}")
    if "input" in tool_input and "name" in tool_input:
        if tool_input["name"] != TOOL_NAME:
            raise InputError(f"unknown tool {tool_input['name']!r}; this runs {TOOL_NAME!r}")
        return run_tool(tool_input["input"])
    missing = [key for key in ("facts", *_CLAIM_FIELDS) if key not in tool_input]
    if missing:
        raise InputError(f"{TOOL_NAME} input is missing {', '.join(missing)}")
    return verify_relation(
        tool_input["facts"], tool_input["subject"], tool_input["relation"], tool_input["object"]
    )
