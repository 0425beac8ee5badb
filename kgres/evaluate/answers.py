"""``kgres eval answers``: do answers from the resolved graph beat answers from the unresolved one?

The Deg-Rag protocol. For each question, the LLM answers twice: from the context of the mention
layer (``before``: what an exact-string system retrieves) and from the resolved entity graph
(``after``). A pairwise LLM judge then compares the two answers on comprehensiveness, diversity,
empowerment and overall, once in each order (before first, then after first), so a judge that
prefers whichever answer it reads first cancels out. Win rate of ``after`` per criterion = (wins +
half the ties) / comparisons. Every call goes through :mod:`kgres.llm` (cached, budgeted); a
failed comparison is counted as failed, never as a win.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from kgres.errors import InputError, KgresError
from kgres.evaluate.gold import read_jsonl
from kgres.llm import LLM, BudgetExhausted, LLMError
from kgres.retrieve.retriever import Retriever

CRITERIA = ("comprehensiveness", "diversity", "empowerment", "overall")
PROMPT_VERSION = "compare-v1"
SYSTEM = (
    "You compare two answers to one question. Judge each criterion separately: comprehensiveness (how "
    "much of what the question needs it covers), diversity (how varied the perspectives and facts are), "
    "empowerment (how well it helps the reader understand and judge), overall. For each, name the better "
    "answer: \"1\", \"2\" or \"tie\". Reply with one JSON object: {\"comprehensiveness\": ..., "
    "\"diversity\": ..., \"empowerment\": ..., \"overall\": ..., \"reason\": short text}.")

Pick = Literal["1", "2", "tie"]


class Comparison(BaseModel):
    comprehensiveness: Pick
    diversity: Pick
    empowerment: Pick
    overall: Pick
    reason: str = ""


class AnswerEval(BaseModel):
    questions: int
    comparisons: int
    failed: int
    stopped_by_budget: bool = False
    win_rate: dict[str, float]  # of the resolved graph's answers, per criterion
    results: list[dict[str, Any]]


def load_questions(path: Path) -> list[dict[str, str]]:
    """JSONL lines with a ``question`` (and optionally an ``id``); other keys are ignored, so the
    ``eval paths`` file works too.

    Raises:
        InputError: unreadable file, a line that is not JSON, or a line without a question.
    """
    out = []
    for n, row in read_jsonl(path, "questions file"):
        q = row.get("question") if isinstance(row, dict) else None
        if not isinstance(q, str) or not q.strip():
            raise InputError("each line needs a non-empty \"question\"", path=path, line=n, field="question")
        out.append({"id": str(row.get("id", n)), "question": q})
    return out


def evaluate(retriever: Retriever, llm: LLM, questions: list[dict[str, str]], **retrieve: Any) -> AnswerEval:
    """Answer every question from both layers and compare the answers in both orders (module docstring)."""
    wins = {c: 0.0 for c in CRITERIA}
    comparisons = failed = 0
    results = []
    stopped = False
    for q in questions:
        try:
            before = retriever.answer(retriever.retrieve(q["question"], layer="mentions", **{
                k: v for k, v in retrieve.items() if k != "mode"}))
            after = retriever.answer(retriever.retrieve(q["question"], **retrieve))
        except BudgetExhausted:
            stopped = True
            break
        except LLMError as e:
            failed += 2
            results.append({**q, "error": str(e)})
            continue
        row: dict[str, Any] = {**q, "before": before.answer, "after": after.answer, "orders": []}
        for after_is in ("2", "1"):  # after second, then after first
            first, second = (before, after) if after_is == "2" else (after, before)
            user = (f"Question: {q['question']}\n\nAnswer 1:\n{first.answer}\n\nAnswer 2:\n{second.answer}")
            try:
                c = llm.ask(PROMPT_VERSION, SYSTEM, user, Comparison)
            except BudgetExhausted:
                stopped = True
                break
            except KgresError as e:
                failed += 1
                row["orders"].append({"after_is": after_is, "error": str(e)})
                continue
            comparisons += 1
            picks = c.model_dump()
            for crit in CRITERIA:
                wins[crit] += 1.0 if picks[crit] == after_is else 0.5 if picks[crit] == "tie" else 0.0
            row["orders"].append({"after_is": after_is, **picks})
        results.append(row)
        if stopped:
            break
    rate = {c: round(wins[c] / comparisons, 4) if comparisons else 0.0 for c in CRITERIA}
    return AnswerEval(questions=len(questions), comparisons=comparisons, failed=failed, win_rate=rate,
                      stopped_by_budget=stopped, results=results)
