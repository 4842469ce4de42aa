"""A background job and everything needed to run, resume and report it.

The upload itself is kept in `JobChunk` rows (jobs/payload.py), not on a disk: any worker on
any machine that reaches the database can run or resume the job. Progress (`resume_at`, the
counters, the partial report) is written after each committed batch of records, so that a
resumed job skips exactly the records already handled.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Job(models.Model):
    class Kind(models.TextChoices):
        IMPORT = "import", _("import")
        REVALIDATE = "revalidate", _("revalidation")
        # A game's every decision rated by simulation (jobs/analysis.py); options: game,
        # samples, seed; progress counts decisions.
        ANALYSIS = "analysis", _("analysis")
        # Many games' analyses as one job (jobs/batches.py): one ANALYSIS job per game (its
        # `batch`), run by every worker; this job shows the whole progress. Options: samples,
        # seed, and the games (`games`: ids) or every game (`player`: only a player's; `limit`).
        ANALYSES = "analyses", _("batch of analyses")
        # Counting stored games into the totals and bringing the ratings up to date
        # (ratings.services.catch_up): queued behind every upload, never run in a request.
        STATS = "stats", _("statistics")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    FINISHED = (Status.DONE, Status.FAILED)

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="jobs", verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Refreshed with every progress report: a running job whose heartbeat is older than
    # JOB_LEASE_SECONDS is presumed abandoned (its worker died) and may be taken over.
    heartbeat_at = models.DateTimeField(_("last progress"), null=True, blank=True)
    attempts = models.PositiveIntegerField(_("runs started"), default=0)
    # The run holding the job (a random token per run): progress from any other run is refused,
    # so a worker that was presumed dead and wakes up cannot overwrite its successor's work.
    runner = models.CharField(max_length=32, blank=True, editable=False)

    # Not run before this time (a job put back after the database went away); null: at once.
    run_after = models.DateTimeField(_("not before"), null=True, blank=True)

    # The upload itself is in JobChunk rows, byte for byte (bytes are decoded as strict UTF-8
    # by the import). Text that came decoded (a form field, JSON) is stored as UTF-8 with
    # `payload_is_text`, and handed back to the import as text.
    payload_is_text = models.BooleanField(default=False)
    payload_name = models.CharField(_("file name"), max_length=255, blank=True)
    payload_size = models.PositiveBigIntegerField(_("size in bytes"), default=0)
    # Revalidation: {"stale": bool, "update": bool}.
    options = models.JSONField(_("options"), default=dict, blank=True)
    # An analysis made as part of a batch of analyses (Kind.ANALYSES): that batch's job.
    batch = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="children",
        verbose_name=_("batch"), db_index=False,  # the (batch, status) index starts with it
    )

    total = models.PositiveIntegerField(
        _("records or games to handle"), null=True, blank=True,
        help_text=_("known once the job started"),
    )
    seen = models.PositiveIntegerField(_("records seen"), default=0)
    stored = models.PositiveIntegerField(_("stored"), default=0)
    duplicates = models.PositiveIntegerField(_("duplicates"), default=0)
    refused = models.PositiveIntegerField(_("refused"), default=0)
    not_stored = models.PositiveIntegerField(
        _("not stored"), default=0,
        help_text=_("valid records left unstored because the job stopped (resume to store)"),
    )
    resume_at = models.PositiveIntegerField(
        _("resume at"), default=0, help_text=_("records (or games) already handled")
    )
    # Import: records.services.ImportReport.as_dict() over the whole file (merged across
    # resumed runs). Revalidation: the RevalidateReport's counts and details.
    report = models.JSONField(_("report"), default=dict, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["created_by", "-created_at"]),
            # A batch's counts by status, taken whenever one of its analyses ends: read from
            # the index alone.
            models.Index(fields=["batch", "status"], name="job_batch_status"),
        ]
        verbose_name = _("background job")
        verbose_name_plural = _("background jobs")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} job {self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED

    @property
    def percent(self) -> int | None:
        """How far the job is, 0-100; None while its size is unknown."""
        if self.status == self.Status.DONE:
            return 100
        if not self.total:
            return None
        return min(100, self.resume_at * 100 // self.total)

    def visible_to(self, user: Any) -> bool:
        """Only the job's creator and staff see a job (others are told it does not exist)."""
        if not getattr(user, "is_authenticated", False):
            return False
        return bool(user.is_staff) or (
            self.created_by_id is not None and self.created_by_id == user.pk
        )


def creator(user: Any) -> Any:
    """The user a job is created by: a signed-in one, else nobody."""
    return user if getattr(user, "is_authenticated", False) else None


class JobChunk(models.Model):
    """One piece of a job's upload, in order (`number` from 0): the upload is written and read
    a chunk at a time, so its size never shows in any process's memory."""

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="chunks")
    number = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "number"], name="job_chunk_number"),
        ]
        verbose_name = _("upload chunk")


class JobPart(models.Model):
    """One chunk of a job split across the Celery workers (jobs/parts.py): an import's records
    `first_index` up to `stop_index` (bytes `start_byte` up to `stop_byte` of the upload,
    starting at line `first_line`), or a revalidation's games with ids `first_index` up to
    `stop_index`. Each part is run by one worker at a time under its own lease, like a job;
    the job's progress is the sum of its parts', its report their merge in order."""

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="parts")
    number = models.PositiveIntegerField()
    first_index = models.PositiveBigIntegerField()
    stop_index = models.PositiveBigIntegerField(null=True, blank=True)
    first_line = models.PositiveBigIntegerField(default=1)
    start_byte = models.PositiveBigIntegerField(default=0)
    stop_byte = models.PositiveBigIntegerField(null=True, blank=True)

    done = models.BooleanField(default=False)
    runner = models.CharField(max_length=32, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    # Where a redone part goes on: the first record (or game id) not committed yet.
    next_index = models.PositiveBigIntegerField(default=0)
    handled = models.PositiveIntegerField(default=0)
    stored = models.PositiveIntegerField(default=0)
    duplicates = models.PositiveIntegerField(default=0)
    refused = models.PositiveIntegerField(default=0)
    # The part's own report (ImportReport.as_dict, or a revalidation's counts), and for an
    # import its ledger: [index, line, "stored" | "duplicate", game id] of every record.
    report = models.JSONField(default=dict, blank=True)
    ledger = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "number"], name="job_part_number"),
        ]
        verbose_name = _("job part")
