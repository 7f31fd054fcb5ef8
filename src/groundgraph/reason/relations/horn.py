"""Horn rules: forward chaining to the least model, and the rules behind each conclusion.

A rule ``(body, head)`` says "if every atom of body holds, head holds"; atoms are any
hashable values (strings, or tuples such as ``("parent", "a", "b")``). The least model is
the smallest set of atoms that contains the facts and is closed under the rules: exactly
what the facts and rules entail. Transitive closure is the special case of rules
``{(x r y), (y r z)} → (x r z)`` written out for the entities at hand.

Forward chaining counts, for each rule, the body atoms not yet derived, and fires the rule
when the count reaches zero, so each rule is looked at once per body atom: linear in the
size of the rules (Dowling and Gallier, 1984).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from groundgraph.errors import InputError

A = TypeVar("A", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Rule(Generic[A]):
    """If every atom of ``body`` holds, ``head`` holds."""

    body: frozenset[A]
    head: A


@dataclass(frozen=True, slots=True)
class Derivation(Generic[A]):
    """The least model and, for each derived atom, the rule that first derived it."""

    model: frozenset[A]
    facts: frozenset[A]
    fired: tuple[Rule[A], ...]  # the rules that derived a new atom, in firing order
    derived_by: dict[A, int]  # atom -> index into fired


def _rules(rules: Iterable[tuple[Iterable[A], A] | Rule[A]]) -> list[Rule[A]]:
    checked: list[Rule[A]] = []
    for i, rule in enumerate(rules):
        if isinstance(rule, Rule):
            checked.append(rule)
            continue
        if not isinstance(rule, tuple) or len(rule) != 2 or isinstance(rule[0], str):
            raise InputError(f"rule #{i} must be (body atoms, head), got {rule!r}")
        checked.append(Rule(frozenset(rule[0]), rule[1]))
    return checked


def derive(facts: Iterable[A], rules: Iterable[tuple[Iterable[A], A] | Rule[A]]) -> Derivation[A]:
    """Forward-chain the facts through the rules to the least model, recording each step."""
    rule_list = _rules(rules)
    known = set(facts)
    base = frozenset(known)
    missing = [len(rule.body) for rule in rule_list]
    watchers: dict[A, list[int]] = {}
    for i, rule in enumerate(rule_list):
        for atom in rule.body:
            watchers.setdefault(atom, []).append(i)
    fired: list[Rule[A]] = []
    derived_by: dict[A, int] = {}
    queue: deque[A] = deque(known)
    ready = deque(i for i, count in enumerate(missing) if count == 0)
    while ready or queue:
        while ready:
            rule = rule_list[ready.popleft()]
            if rule.head not in known:
                known.add(rule.head)
                derived_by[rule.head] = len(fired)
                fired.append(rule)
                queue.append(rule.head)
        if queue:
            atom = queue.popleft()
            for i in watchers.get(atom, ()):
                missing[i] -= 1
                if missing[i] == 0:
                    ready.append(i)
    return Derivation(frozenset(known), base, tuple(fired), derived_by)


def forward_chain(facts: Iterable[A], rules: Iterable[tuple[Iterable[A], A] | Rule[A]]) -> set[A]:
    """The least model: every atom the facts and rules entail."""
    return set(derive(facts, rules).model)


def entails(facts: Iterable[A], rules: Iterable[tuple[Iterable[A], A] | Rule[A]], goal: A) -> bool:
    """Whether the facts and rules entail goal."""
    return goal in derive(facts, rules).model


def explain(
    facts: Iterable[A], rules: Iterable[tuple[Iterable[A], A] | Rule[A]], goal: A
) -> list[Rule[A]] | None:
    """The rules that derive goal, in the order they fired.

    [] when goal is a fact, None when it is not entailed. Replaying the returned rules in
    order from the facts derives goal; each rule returned derives an atom that this
    derivation of goal uses.
    """
    derivation = derive(facts, rules)
    if goal not in derivation.model:
        return None
    needed: set[int] = set()
    stack = [goal]
    while stack:
        atom = stack.pop()
        if atom in derivation.facts:
            continue
        index = derivation.derived_by[atom]
        if index in needed:
            continue
        needed.add(index)
        stack.extend(derivation.fired[index].body)
    return [derivation.fired[i] for i in sorted(needed)]
