"""``kgres report``: diagnostics computed in the database (:mod:`~kgres.report.diagnostics`) and their
self-contained HTML form (:mod:`~kgres.report.html`)."""

from kgres.report.diagnostics import SIZE_BUCKETS, Components, Report, components, report

__all__ = ["SIZE_BUCKETS", "Components", "Report", "components", "report"]
