"""What the running system records about itself: its events (a process restarted, time the
system was down and credited to the clocks) and its heartbeat."""

from __future__ import annotations

from django.db import models


class SystemEvent(models.Model):
    """One line the arbiters see: "clock restarted at 14:02:11 (exit code -9)"."""

    class Kind(models.TextChoices):
        RESTART = "restart", "Process restarted"
        GAVE_UP = "gave_up", "Supervisor stopped"
        DOWNTIME = "downtime", "Downtime credited"

    at = models.DateTimeField(db_index=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    process = models.CharField(max_length=40, blank=True, default="")
    message = models.TextField()

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.message}"


class Heartbeat(models.Model):
    """One row (pk 1): the last moment the system could take moves (arbiter.runtime.downtime)."""

    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"heartbeat {self.at.isoformat()}"
