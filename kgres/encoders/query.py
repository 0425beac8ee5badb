"""The question encoder: one short text at a time, as fast as the CPU allows (traced TorchScript,
bfloat16 linear layers where the CPU multiplies them natively), giving the batch encoder's vector."""

from __future__ import annotations

import copy
import logging
import warnings
from collections.abc import Callable
from typing import Any, Literal

from kgres.encoders import EncoderConfig
from kgres.encoders.endpoint import endpoint_encoder
from kgres.encoders.local import PROBES, local_model, native_bf16

_log = logging.getLogger(__name__)


class QueryEncoder:
    """A loaded question encoder: call it with one text for its normalised vector. ``traced`` and
    ``bf16`` say how it runs (see :func:`load_query_encoder`)."""

    def __init__(self, encode: Callable[[str], list[float]], traced: bool = False, bf16: bool = False) -> None:
        self._encode, self.traced, self.bf16 = encode, traced, bf16

    def __call__(self, text: str) -> list[float]:
        return self._encode(text)


def load_query_encoder(cfg: EncoderConfig, threads: int | None = None, trace: bool = True,
                       bf16: Literal["auto", "on", "off"] = "off") -> QueryEncoder:
    """An encoder for one short text at a time (a question), giving the same normalised vector as
    :func:`kgres.encoders.load_encoder`: the model's modules are called directly, without ``encode``'s batching
    machinery. ``threads`` sets torch's intra-op threads for the process: a question is a dozen
    tokens, too small to share across cores, and a server's concurrent requests need them.

    With ``trace``, the transformer is traced and frozen into TorchScript (about a third of the
    eager time per question on the CPU: fewer Python dispatches, fused ops), then checked against the
    untraced model on texts of several lengths (cosine >= 0.99999); a model that cannot be traced, or
    whose traced output differs, is served untraced (and says so in the log).

    ``bf16`` ("on", "off", "auto": on where the CPU multiplies bfloat16 natively, AMX or
    AVX512-BF16): the traced transformer's linear layers multiply in bfloat16 (the rest stays
    float32), checked against the float32 model at cosine >= 0.9999; float32 where that fails.
    Measured on an AMX CPU: a third less time per question, vectors within cosine 0.99997."""
    if cfg.endpoint:
        encode, _ = endpoint_encoder(cfg)
        return QueryEncoder(lambda text: encode([text])[0])
    import torch

    if threads:
        torch.set_num_threads(threads)
    model = local_model(cfg.model, cfg.device)
    prepare = getattr(model, "preprocess", None) or model.tokenize
    modules = list(model)
    first: Callable[[dict], dict] = modules[0]

    def encode_with(first: Callable[[dict], dict], text: str) -> Any:
        # optimized_execution(False) (thread-local) runs the frozen graph as traced. The default
        # profiling executor re-specialises it on the shapes it has seen, and after questions of
        # other lengths (_traced_transformer's probes, a long question) it fell back to a slower
        # plan: 9-10 ms a question instead of 5-6 here, depending on what came first.
        with torch.inference_mode(), torch.jit.optimized_execution(False):
            features = {k: v.to(model.device) if hasattr(v, "to") else v for k, v in prepare([text]).items()}
            features = first(features)
            for module in modules[1:]:
                features = module(features)
            return torch.nn.functional.normalize(features["sentence_embedding"][0], dim=0)

    traced, half = None, False
    if trace:
        if bf16 == "on" or (bf16 == "auto" and native_bf16()):
            traced = _traced_transformer(model, prepare, encode_with, bf16=True)
            half = traced is not None
        traced = traced or _traced_transformer(model, prepare, encode_with)
    chosen = traced or first
    return QueryEncoder(lambda text: encode_with(chosen, text).tolist(), traced=traced is not None, bf16=half)


def _traced_transformer(model: Any, prepare: Callable, encode_with: Callable,
                        bf16: bool = False) -> Callable[[dict], dict] | None:
    """The first module of ``model`` (a sentence-transformers ``Transformer`` over a text model) as
    a frozen TorchScript function of the token tensors (with ``bf16``, its linear layers in
    bfloat16), or None when it cannot be traced faithfully."""
    import torch

    first = model[0]
    inner = getattr(first, "auto_model", None) or getattr(first, "model", None)
    out_name = getattr(first, "module_output_name", "token_embeddings")
    if inner is None or model.device.type != "cpu":
        return None
    if bf16:
        inner = _bf16_linears(copy.deepcopy(inner))
    example = prepare([PROBES[1]])  # the question
    names = [k for k in ("input_ids", "attention_mask", "token_type_ids") if k in example]

    class _Hidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *tensors: Any) -> Any:
            return self.inner(**dict(zip(names, tensors)), return_dict=False)[0]

    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = torch.jit.freeze(torch.jit.trace(_Hidden().eval(), tuple(example[k] for k in names),
                                                      strict=False).eval())
            if not bf16:  # its rewrites made the bfloat16 graph slower (5.7-5.9 ms vs 5.0-5.2)
                module = torch.jit.optimize_for_inference(module)
    except Exception as e:  # noqa: BLE001 - any tracing failure means: serve the model untraced
        _log.info("query encoder not traced (%s: %s); serving it untraced", type(e).__name__, e)
        return None

    def traced(features: dict) -> dict:
        features[out_name] = module(*(features[k] for k in names))
        return features

    floor = 0.9999 if bf16 else 0.99999
    for text in PROBES:
        cos = float(encode_with(first, text) @ encode_with(traced, text))
        if cos < floor:
            _log.info("traced query encoder%s differs from the model (cosine %.6f on %r); not used",
                      " (bf16)" if bf16 else "", cos, text)
            return None
    return traced


def _bf16_linears(module: Any) -> Any:
    """``module`` with every ``torch.nn.Linear`` replaced by one that multiplies in bfloat16 and adds
    its bias in float32 (in place; pass a copy)."""
    import torch

    class _Bf16Linear(torch.nn.Module):
        def __init__(self, linear: torch.nn.Linear) -> None:
            super().__init__()
            self.register_buffer("weight", linear.weight.detach().to(torch.bfloat16))
            self.register_buffer("bias", None if linear.bias is None else linear.bias.detach().clone())

        def forward(self, x: Any) -> Any:
            y = torch.nn.functional.linear(x.to(torch.bfloat16), self.weight).float()
            return y if self.bias is None else y + self.bias

    for name, child in module.named_children():
        if isinstance(child, torch.nn.Linear):
            setattr(module, name, _Bf16Linear(child))
        else:
            _bf16_linears(child)
    return module


