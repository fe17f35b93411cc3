"""Forms of the arbiter pages. They check the shape of the input; the services judge it."""

from __future__ import annotations

from django import forms

from arbiter.games.models import Game
from rules.outcome import Termination

RESULT_CHOICES = [("", "–")] + [
    (value, label) for value, label in Game.Result.choices if value not in ("", Game.Result.BYE)
]
TERMINATION_CHOICES = [("", "–")] + [
    (t.value, t.label) for t in Termination if t not in (Termination.BYE,)
]


class ResultForm(forms.Form):
    """One board's result. Changing a result already entered is a correction: it needs a
    reason, which the service logs with the old and new result."""

    result = forms.ChoiceField(choices=RESULT_CHOICES, required=False)
    termination = forms.ChoiceField(choices=TERMINATION_CHOICES, required=False)
    reason = forms.CharField(max_length=500, required=False)

    def __init__(self, *args, game: Game, **kwargs):
        kwargs.setdefault("initial", {"result": game.result, "termination": game.termination})
        kwargs.setdefault("prefix", f"board-{game.board}")
        super().__init__(*args, **kwargs)
        self.game = game

    @property
    def is_correction(self) -> bool:
        return bool(self.game.result)

    def changes_result(self) -> bool:
        data = self.cleaned_data
        return data["result"] != self.game.result or (
            data["result"] and data["termination"] != self.game.termination
        )

    def clean(self):
        data = super().clean()
        needs_reason = not self.errors and self.changes_result() and self.is_correction
        if needs_reason and not data.get("reason", "").strip():
            self.add_error(
                "reason",
                f"board {self.game.board} already has the result {self.game.result}: "
                "say why it is corrected",
            )
        return data


class SwapPlayersForm(forms.Form):
    """Exchange the seats of two players (on two boards, or the colours on one board)."""

    first = forms.TypedChoiceField(coerce=int, label="Player")
    second = forms.TypedChoiceField(coerce=int, label="swaps seats with")
    reason = forms.CharField(max_length=500)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "–")] + [(p.pk, label) for p, label in players]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError("choose two different players")
        return data


class SetBoardForm(forms.Form):
    """Put two players (or one with a bye) on a board; the players they displace take their
    former seats."""

    board = forms.TypedChoiceField(coerce=int)
    white = forms.TypedChoiceField(coerce=int)
    black = forms.ChoiceField(help_text="or a bye")
    reason = forms.CharField(max_length=500)

    def __init__(self, *args, players, boards: int, **kwargs):
        super().__init__(*args, **kwargs)
        player_choices = [(p.pk, label) for p, label in players]
        self.fields["board"].choices = [(n, str(n)) for n in range(1, boards + 1)] + [
            (boards + 1, f"{boards + 1} (new board)")
        ]
        self.fields["white"].choices = [("", "–")] + player_choices
        self.fields["black"].choices = [("", "–"), ("bye", "bye (no opponent)")] + player_choices

    def clean_black(self):
        value = self.cleaned_data["black"]
        return None if value == "bye" else int(value)

    def clean(self):
        data = super().clean()
        if data.get("white") and data.get("white") == data.get("black"):
            raise forms.ValidationError("a player cannot play themself")
        return data


class ReasonForm(forms.Form):
    """An optional reason, logged with the action (withdrawing, undoing a pairing)."""

    reason = forms.CharField(max_length=500, required=False)


class AbsenceForm(forms.Form):
    """Rounds a player announced they will miss, e.g. '3, 4'."""

    rounds = forms.CharField(max_length=100, label="Absent in rounds")

    def clean_rounds(self) -> list[int]:
        raw = self.cleaned_data["rounds"].replace(";", ",")
        numbers = []
        for part in (p.strip() for p in raw.split(",")):
            if not part:
                continue
            if not (part.isascii() and part.isdigit()) or int(part) < 1:
                raise forms.ValidationError(f"'{part}' is not a round number")
            numbers.append(int(part))
        if not numbers:
            raise forms.ValidationError("give at least one round number")
        return sorted(set(numbers))


class ScheduleForm(forms.Form):
    """When a round starts, in the server's time zone (settings.TIME_ZONE); empty clears it."""

    scheduled_start = forms.DateTimeField(
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )


class ByeForm(forms.Form):
    """A bye a player asked for in a round not paired yet (or taking the request back)."""

    round = forms.IntegerField(min_value=1)
    cancel = forms.BooleanField(required=False)


class ImportPlayersForm(forms.Form):
    """CSV text pasted or uploaded; the service checks every line and imports all or none."""

    text = forms.CharField(
        label="CSV text",
        widget=forms.Textarea(attrs={"rows": 12, "cols": 80}),
        required=False,
    )
    file = forms.FileField(required=False, label="or a CSV file")

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            try:
                data["csv"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise forms.ValidationError(
                    f"the file is not UTF-8 text (byte {exc.start}): save it as CSV UTF-8"
                ) from exc
        else:
            data["csv"] = data.get("text", "")
        if not data["csv"].strip():
            raise forms.ValidationError("paste the CSV text or choose a file")
        return data
