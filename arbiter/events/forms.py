"""Forms of the arbiter pages. They check the shape of the input; the services judge it."""

from __future__ import annotations

from django import forms

from arbiter import messages
from arbiter.events.models import Event
from arbiter.events.tiebreaks import TIEBREAKS
from arbiter.games.models import Game
from clocks.timecontrol import PRESETS
from rules.outcome import Termination

RESULT_CHOICES = [("", "–")] + [
    (value, label) for value, label in Game.Result.choices if value not in ("", Game.Result.BYE)
]
TERMINATION_CHOICES = [("", "–")] + [
    (t.value, messages.termination(t)) for t in Termination if t not in (Termination.BYE,)
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
        # The table's headers are not labels: each control says which board it is for.
        for name, words in (
            ("result", "result"),
            ("termination", "how it ended"),
            ("reason", "reason for the correction"),
        ):
            self.fields[name].widget.attrs["aria-label"] = f"Board {game.board}: {words}"

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


# ---------------------------------------------------------------------------------------
# The organizer's forms: an event's settings, its arbiters, one player.


def _preset_label(name: str) -> str:
    from arbiter.events.presentation import describe_time_control

    return f"{name.replace('_', ' ')}: {describe_time_control(PRESETS[name].to_pdn())}"


class EventSettingsForm(forms.Form):
    """An event's settings. Types are checked here; the values by the service (check_settings),
    whose messages are the API's."""

    name = forms.CharField(max_length=200, required=False)
    place = forms.CharField(max_length=200, required=False)
    federation = forms.CharField(max_length=3, required=False, help_text="Three letters, e.g. NED.")
    start_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    system = forms.ChoiceField(label="Pairing system", choices=Event.System.choices)
    pairing_system = forms.ChoiceField(
        label="Swiss pairing rules",
        choices=Event.PairingSystem.choices,
        required=False,
        initial=Event.PairingSystem.FMJD,
        help_text="FIDE Dutch for events that announce the FIDE rules.",
    )
    rounds = forms.IntegerField(
        label="Rounds",
        required=False,
        help_text="Swiss only; a round robin has as many as its table.",
    )
    points_win = forms.IntegerField(label="Points for a win")
    points_draw = forms.IntegerField(label="Points for a draw")
    points_loss = forms.IntegerField(label="Points for a loss")
    points_bye = forms.IntegerField(label="Points for a bye")
    points_forfeit_win = forms.IntegerField(label="Points for a win by forfeit")
    preset = forms.ChoiceField(
        label="Time control",
        required=False,
        choices=[("", "another: type its PDN tag below")] + [(name, name) for name in PRESETS],
    )
    time_control = forms.CharField(
        label="PDN TimeControl tag",
        max_length=100,
        required=False,
        help_text="e.g. 50/7200:25/3600 (moves/seconds), 4800+60 (Fischer). Ignored when a "
        "preset is chosen.",
    )
    flag_policy = forms.ChoiceField(label="Time exceeded", choices=Event.FlagPolicy.choices)
    late_arrival_minutes = forms.IntegerField(
        label="Late arrival limit (minutes)", help_text="0 to 60 (FMJD)."
    )
    tablet_moves_required = forms.BooleanField(
        label="A press on the board's tablet carries the move",
        required=False,
        initial=True,
        help_text="Off: a press only charges the clock; the moves come from the notation sheets.",
    )
    lag_quota_ms = forms.IntegerField(
        label="Network lag credited per player and game (ms)",
        required=False,
        initial=5000,
        min_value=0,
        max_value=60_000,
        help_text="What a tablet's press spent on the network is not charged, up to this.",
    )
    downtime_credit = forms.BooleanField(
        label="Credit the clocks with time the system was down",
        required=False,
        initial=True,
        help_text="On (the default): after a stop or a crash the running clocks get that time "
        "back, each credit in the clock's log. Off: the players are charged it.",
    )
    numbering = forms.ChoiceField(label="Pairing numbers", choices=Event.Numbering.choices)
    pairing_seed = forms.CharField(
        label="Drawn lot", max_length=50, required=False, help_text="For numbering by lot."
    )
    published = forms.BooleanField(
        label="Public (anyone may see the event's pages)", required=False
    )

    TIEBREAK_PREFIX = "tb_"

    def __init__(self, *args, locked: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [("", "another: type its PDN tag below")] + [
            (name, _preset_label(name)) for name in PRESETS
        ]
        for code, text in TIEBREAKS.items():
            self.fields[self.TIEBREAK_PREFIX + code] = forms.IntegerField(
                label=text,
                required=False,
                min_value=1,
                max_value=len(TIEBREAKS),
                widget=forms.NumberInput(attrs={"size": 2, "class": "tb-order"}),
            )
        self.locked = locked or {}
        for name, why in self.locked.items():
            for field in self._form_fields(name):
                self.fields[field].disabled = True
                self.fields[field].help_text = str(why)

    def _form_fields(self, setting: str) -> list[str]:
        if setting == "tiebreaks":
            return [self.TIEBREAK_PREFIX + c for c in TIEBREAKS]
        if setting == "time_control":
            return ["preset", "time_control"]
        return [setting] if setting in self.fields else []

    @classmethod
    def initial_for(cls, event: Event) -> dict:
        data = {f: getattr(event, f) for f in SETTINGS}
        for position, code in enumerate(event.tiebreaks or [], start=1):
            data[cls.TIEBREAK_PREFIX + code] = position
        preset = next((n for n, tc in PRESETS.items() if tc.to_pdn() == event.time_control), "")
        data["preset"] = preset
        return data

    def tiebreak_fields(self):
        """The ten tie-breaks, those chosen first in their order, then the others."""

        def position(code):
            bound = self[self.TIEBREAK_PREFIX + code]
            value = bound.value()
            try:
                return (0, int(value))
            except (TypeError, ValueError):
                return (1, list(TIEBREAKS).index(code))

        return [self[self.TIEBREAK_PREFIX + code] for code in sorted(TIEBREAKS, key=position)]

    def clean(self):
        data = super().clean()
        chosen = [
            (data[self.TIEBREAK_PREFIX + code], code)
            for code in TIEBREAKS
            if data.get(self.TIEBREAK_PREFIX + code)
        ]
        positions = [p for p, _ in chosen]
        twice = sorted({p for p in positions if positions.count(p) > 1})
        if twice:
            self.add_error(
                None,
                f"tiebreaks: position(s) {', '.join(map(str, twice))} given to two tie-breaks; "
                "number them 1, 2, 3 ... in the order they apply",
            )
        data["tiebreaks"] = [code for _, code in sorted(chosen)]
        if data.get("preset"):
            data["time_control"] = PRESETS[data["preset"]].to_pdn()
        return data

    def settings(self) -> dict:
        """The settings to give the service (only those that may still change)."""
        data = self.cleaned_data
        out = {f: data.get(f) for f in SETTINGS if f not in self.locked}
        for optional in ("rounds", "pairing_system", "lag_quota_ms"):  # not given: kept/default
            if out.get(optional) in (None, ""):
                out.pop(optional, None)
        return out


#: The settings the form edits (all of create_event's but status).
SETTINGS = (
    "name",
    "place",
    "federation",
    "start_date",
    "end_date",
    "system",
    "pairing_system",
    "rounds",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "points_forfeit_win",
    "tiebreaks",
    "time_control",
    "flag_policy",
    "late_arrival_minutes",
    "tablet_moves_required",
    "lag_quota_ms",
    "downtime_credit",
    "numbering",
    "pairing_seed",
    "published",
)


class ArbitersForm(forms.Form):
    """The event's arbiters chosen from the users: the chief and the deputies."""

    chief = forms.ModelChoiceField(queryset=None, required=False, label="Chief arbiter")
    deputies = forms.ModelMultipleChoiceField(
        queryset=None,
        required=False,
        label="Deputy arbiters",
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, users, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["chief"].queryset = users
        self.fields["deputies"].queryset = users
        self.fields["chief"].label_from_instance = _user_label
        self.fields["deputies"].label_from_instance = _user_label


def _user_label(user) -> str:
    full = user.get_full_name()
    return f"{full} ({user.username})" if full else user.username


class InviteArbiterForm(forms.Form):
    """A login for a new arbiter, who becomes a deputy arbiter of the event."""

    username = forms.CharField(max_length=150, label="Login name")
    full_name = forms.CharField(max_length=150, required=False, label="Full name")
    email = forms.EmailField(required=False)
    password = forms.CharField(
        label="Initial password",
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
        help_text="Give it to them in person; they use it to log in.",
    )


class PlayerLoginForm(forms.Form):
    """A login for a player, who then sees their own page (games, sheets, results)."""

    username = forms.CharField(max_length=150, label="Login name")
    email = forms.EmailField(required=False)
    password = forms.CharField(
        label="Initial password",
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
        help_text="Give it to the player in person; they use it to log in.",
    )


class PlayerForm(forms.Form):
    """One player's details; the service checks them (the CSV import's rules)."""

    surname = forms.CharField(max_length=100, required=False)
    given_name = forms.CharField(max_length=100, required=False, label="Given name(s)")
    fmjd_id = forms.CharField(max_length=20, required=False, label="FMJD id")
    federation = forms.CharField(max_length=3, required=False, help_text="e.g. NED")
    rating = forms.CharField(max_length=10, required=False)
    title = forms.CharField(max_length=10, required=False, help_text="GMI, MI, MF, ...")
    club = forms.CharField(max_length=200, required=False)
