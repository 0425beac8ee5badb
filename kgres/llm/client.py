"""The LLM client: any OpenAI-compatible endpoint, bounded, retried, budgeted, cached in the database.

Configuration: ``[llm]`` in the config file or ``KGRES_LLM__*``; the standard ``OPENAI_BASE_URL``
and ``OPENAI_API_KEY`` are honoured, and the model comes from ``KGRES_LLM_MODEL`` (or ``model`` in
``[llm]``). With no model configured, :func:`client` returns None and LLM stages are skipped.

Every call: a cached answer for (model, prompt version, input hash) is reused at no cost; otherwise
the call is made with a timeout, retried with backoff on 429 (honouring ``Retry-After``), 5xx and
timeouts, and counted against the run's call and token budget (:class:`BudgetExhausted` stops the
stage cleanly; a rerun resumes, as answered items are cached). Answers are parsed into a pydantic
model: JSON-schema response format where the server supports it, tolerant parsing otherwise
(code fences, text around the object). A malformed answer is an :class:`LLMError`, never a guess.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kgres.db import Database
from kgres.errors import KgresError
from kgres.openai_compat import openai_client

T = TypeVar("T", bound=BaseModel)


class LLMSettings(BaseModel):
    """``[llm]``: where the model is and how much a run may spend."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = Field(60.0, gt=0)
    max_retries: int = Field(4, ge=0, le=20)
    max_retry_wait_s: float = Field(60.0, ge=0)
    concurrency: int = Field(4, ge=1, le=64)
    max_calls: int | None = Field(None, ge=0)
    max_tokens: int | None = Field(None, ge=0)
    json_schema: bool = True  # ask for the JSON-schema response format (servers without it: tolerant parse)


class LLMError(KgresError):
    """A call failed or its answer was unusable; the item it was about is left undecided."""


class BudgetExhausted(KgresError):
    """The run's call or token budget is spent; what was answered so far is kept."""


class Usage(BaseModel):
    calls: int = 0
    cached: int = 0
    failed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


def client(db: Database, settings: LLMSettings) -> "LLM | None":
    """An LLM client for ``settings`` (with ``KGRES_LLM_MODEL`` / ``OPENAI_BASE_URL`` applied), or
    None when no model is configured."""
    model = configured_model(settings)
    if not model:
        return None
    base_url = settings.base_url or os.environ.get("OPENAI_BASE_URL")
    return LLM(db, settings.model_copy(update={"model": model, "base_url": base_url}))


def configured_model(settings: LLMSettings) -> str | None:
    """The model LLM stages would use: ``KGRES_LLM_MODEL``, else ``[llm] model``, else None."""
    return os.environ.get("KGRES_LLM_MODEL") or settings.model


class LLM:
    def __init__(self, db: Database, settings: LLMSettings) -> None:
        import openai

        self.db, self.settings, self.usage = db, settings, Usage()
        self._lock = threading.Lock()
        self._openai = openai
        # retries are ours (backoff, Retry-After, budget), not the client's
        self._client = openai_client(settings.base_url, settings.api_key_env, settings.timeout_s, max_retries=0)

    @property
    def model(self) -> str:
        return self.settings.model or ""

    def ask(self, prompt_version: str, system: str, user: str, schema: type[T]) -> T:
        """One structured answer (cached by model, prompt version and input).

        Raises:
            BudgetExhausted: the call would exceed the budget (nothing was sent).
            LLMError: the endpoint failed after retries, or answered something ``schema`` rejects.
        """
        key = hashlib.sha256(json.dumps([self.model, prompt_version, system, user]).encode()).hexdigest()
        hit = self.db.read("llm_cache_get", key=key)
        if hit:
            with self._lock:
                self.usage.cached += 1
            return schema.model_validate_json(hit[0]["answer"])
        self._reserve()
        try:
            text, usage = self._call(system, user, schema)
            answer = parse(text, schema)
        except LLMError:
            with self._lock:
                self.usage.failed += 1
            raise
        with self._lock:
            self.usage.prompt_tokens += usage.get("prompt_tokens", 0)
            self.usage.completion_tokens += usage.get("completion_tokens", 0)
        self.db.query("llm_cache_put", key=key, model=self.model, prompt_version=prompt_version,
                      answer=answer.model_dump_json(), tokens=sum(usage.values()))
        return answer

    def _reserve(self) -> None:
        s = self.settings
        with self._lock:
            spent = self.usage.prompt_tokens + self.usage.completion_tokens
            if (s.max_calls is not None and self.usage.calls >= s.max_calls) or (
                    s.max_tokens is not None and spent >= s.max_tokens):
                raise BudgetExhausted(f"LLM budget spent ({self.usage.calls} calls, {spent} tokens); "
                                      "rerun to continue, answered items are cached")
            self.usage.calls += 1

    def _call(self, system: str, user: str, schema: type[BaseModel]) -> tuple[str, dict[str, int]]:
        openai, s = self._openai, self.settings
        kwargs: dict[str, Any] = {}
        if s.json_schema:
            kwargs["response_format"] = {"type": "json_schema", "json_schema": {
                "name": schema.__name__, "schema": schema.model_json_schema()}}
        for attempt in range(s.max_retries + 1):
            try:
                r = self._client.chat.completions.create(
                    model=self.model, temperature=0,
                    messages=[{"role": "system", "content": system}, {"role": "user", "content": user}], **kwargs)
            except openai.RateLimitError as e:
                wait = _retry_after(e.response) if e.response is not None else None
                last: Exception = e
                self._sleep(attempt, wait)
                continue
            except (openai.APITimeoutError, openai.InternalServerError) as e:
                last = e
                self._sleep(attempt, None)
                continue
            except openai.BadRequestError as e:
                if kwargs.pop("response_format", None) is not None:  # server without JSON-schema support
                    last = e
                    continue
                raise LLMError(f"LLM {self.model} rejected the request: {e}") from e
            except openai.OpenAIError as e:
                raise LLMError(f"LLM endpoint {s.base_url or 'default'} failed: {type(e).__name__}: {e}") from e
            choice = r.choices[0] if r.choices else None
            text = (choice.message.content if choice and choice.message else None) or ""
            if not text.strip():
                refusal = getattr(choice.message, "refusal", None) if choice else None
                raise LLMError(f"LLM {self.model} gave no answer" + (f" (refused: {refusal})" if refusal else ""))
            usage = {"prompt_tokens": getattr(r.usage, "prompt_tokens", 0) or 0,
                     "completion_tokens": getattr(r.usage, "completion_tokens", 0) or 0} if r.usage else {}
            return text, usage
        raise LLMError(f"LLM {self.model} failed after {s.max_retries + 1} attempts: {type(last).__name__}: {last}")

    def _sleep(self, attempt: int, retry_after: float | None) -> None:
        if attempt >= self.settings.max_retries:
            return
        wait = retry_after if retry_after is not None else min(2 ** attempt * 0.5, 8.0)
        time.sleep(min(wait, self.settings.max_retry_wait_s))


def _retry_after(response: Any) -> float | None:
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


class Batch(BaseModel):
    """Answers to a batch of items: ``answered`` as (index, answer), and what did not come back."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    answered: list[tuple[int, Any]] = []
    failed: list[tuple[int, str]] = []
    stopped_by_budget: bool = False


def ask_each(llm: "LLM", items: list[Any], ask: Any, on_done: Callable[[int], None] = lambda n: None) -> Batch:
    """Run ``ask(item)`` (which calls ``llm.ask``) for every item, ``concurrency`` at a time, and
    sort the outcomes: answers, failures (LLMError: the item stays as it was) and a spent budget.
    ``on_done(1)`` is called, on the calling thread, as each item's outcome comes back (a cached
    answer at once, a call when it returns), whatever the outcome."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    def one(item: Any) -> Any:
        try:
            return ask(item)
        except (LLMError, BudgetExhausted) as e:
            return e

    outcomes: list[Any] = [None] * len(items)
    with ThreadPoolExecutor(max_workers=llm.settings.concurrency) as pool:
        futures = {pool.submit(one, item): i for i, item in enumerate(items)}
        for future in as_completed(futures):
            outcomes[futures[future]] = future.result()
            on_done(1)
    batch = Batch()
    for i, o in enumerate(outcomes):
        if isinstance(o, BudgetExhausted):
            batch.stopped_by_budget = True
        elif isinstance(o, LLMError):
            batch.failed.append((i, str(o)))
        else:
            batch.answered.append((i, o))
    return batch


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


def parse(text: str, schema: type[T]) -> T:
    """The answer as ``schema``: the whole text, or the first JSON object in it (fences, prose around).

    Raises:
        LLMError: no JSON object in the text, or one that does not fit ``schema``.
    """
    body = _FENCE.sub("", text.strip())
    candidates = [body]
    start, end = body.find("{"), body.rfind("}")
    if 0 <= start < end:
        candidates.append(body[start:end + 1])
    error: Exception | None = None
    for c in candidates:
        try:
            return schema.model_validate(json.loads(c))
        except (json.JSONDecodeError, ValidationError) as e:
            error = e
    raise LLMError(f"malformed answer for {schema.__name__}: {str(error)[:200]}")
