"""Registering players (the people, shared by every event) and linking them to a login."""

from __future__ import annotations

import re

from django.db import transaction

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events import permissions
from arbiter.events.models import Player
from arbiter.events.services.audit import events_of, log
from arbiter.validation import check_text

_FEDERATION = re.compile(r"^[A-Z]{3}$")
_TITLE = re.compile(r"^[A-Z]{1,10}$")
MAX_RATING = 3500

PLAYER_FIELDS = ("surname", "given_name", "fmjd_id", "federation", "rating", "title", "club")


def clean_player_fields(**raw) -> dict:
    """Checked and normalised player fields; Invalid names the first bad field and why."""
    out: dict = {}
    surname = check_text("surname", raw.get("surname") or "", 100).strip()
    if not surname:
        raise Invalid("player.surname_required", details={"field": "surname"})
    out["surname"] = surname
    # Refused when too long, never cut: a cut name would be a different name (columns' lengths).
    out["given_name"] = check_text("given_name", raw.get("given_name") or "", 100).strip()
    fmjd_id = check_text("fmjd_id", raw.get("fmjd_id") or "", 20).strip()
    if fmjd_id and not (fmjd_id.isascii() and fmjd_id.isdigit()):
        raise Invalid("player.bad_fmjd_id", fmjd_id=fmjd_id, details={"field": "fmjd_id"})
    out["fmjd_id"] = fmjd_id
    federation = check_text("federation", raw.get("federation") or "").strip().upper()
    if federation and not _FEDERATION.match(federation):
        raise Invalid(
            "player.bad_federation",
            federation=federation,
            details={"field": "federation"},
        )
    out["federation"] = federation
    rating = raw.get("rating")
    if rating in (None, ""):
        out["rating"] = None
    else:
        try:
            value = int(str(rating).strip())
        except ValueError:
            raise Invalid("player.bad_rating", rating=rating, details={"field": "rating"}) from None
        if not 0 <= value <= MAX_RATING:
            raise Invalid(
                "player.rating_out_of_range",
                value=value,
                max=MAX_RATING,
                details={"field": "rating"},
            )
        out["rating"] = value
    title = check_text("title", raw.get("title") or "").strip().upper()
    if title and not _TITLE.match(title):
        raise Invalid("player.bad_title", title=title, details={"field": "title"})
    out["title"] = title
    out["club"] = check_text("club", raw.get("club") or "", 200).strip()
    return out


def _check_fmjd_id_free(fmjd_id: str, *, exclude_pk=None) -> None:
    if not fmjd_id:
        return
    other = Player.objects.filter(fmjd_id=fmjd_id).exclude(pk=exclude_pk).first()
    if other is not None:
        raise Conflict(
            "player.fmjd_id_taken",
            fmjd_id=fmjd_id,
            other=other,
            other_id=other.pk,
            details={"field": "fmjd_id", "player_id": other.pk},
        )


def create_player(
    *,
    by,
    surname: str,
    given_name: str = "",
    fmjd_id: str = "",
    federation: str = "",
    rating: int | None = None,
    title: str = "",
    club: str = "",
) -> Player:
    permissions.require_can_manage_players(by)
    fields = clean_player_fields(
        surname=surname,
        given_name=given_name,
        fmjd_id=fmjd_id,
        federation=federation,
        rating=rating,
        title=title,
        club=club,
    )
    with transaction.atomic():
        _check_fmjd_id_free(fields["fmjd_id"])
        return Player.objects.create(**fields)


def update_player(player: Player, *, by, **fields) -> Player:
    """Correct a player's details (organizers and arbiters)."""
    permissions.require_can_manage_players(by)
    unknown = set(fields) - set(PLAYER_FIELDS)
    if unknown:
        raise Invalid("player.unknown_fields", unknown=sorted(unknown))
    merged = {f: getattr(player, f) for f in PLAYER_FIELDS} | fields
    cleaned = clean_player_fields(**merged)
    with transaction.atomic():
        _check_fmjd_id_free(cleaned["fmjd_id"], exclude_pk=player.pk)
        changed = [f for f, v in cleaned.items() if getattr(player, f) != v]
        old = {f: getattr(player, f) for f in changed}
        for f, v in cleaned.items():
            setattr(player, f, v)
        player.save()
        if changed:
            # Logged in every event the player is entered in (their cards show it there).
            for event in events_of(player):
                log(
                    event,
                    by=by,
                    action="player.update",
                    target=str(player),
                    old=old,
                    new={f: cleaned[f] for f in changed},
                )
    return player


def link_user(player: Player, user, *, by) -> Player:
    """Make `user` the login of `player` (who may then act on their own entries and games)."""
    if not permissions.can_create_events(by):
        raise Forbidden("player.only_organizers_link")
    taken = Player.objects.filter(user=user).exclude(pk=player.pk).first()
    if taken is not None:
        raise Conflict("player.login_taken", user=user, taken=taken)
    player.user = user
    player.save(update_fields=["user"])
    return player


def create_player_login(entry, *, by, username: str, password: str, email: str = ""):
    """A new login for the player of `entry`, linked to them (the organizer of the event
    only): the player then sees their own page, confirms their results and submits their
    notation sheets. Logged in the event. A player has one login."""
    from .logins import new_login, username_taken

    event = entry.event
    permissions.require_organizer(by, event)
    player = entry.player
    if player.user_id is not None:
        raise Conflict("player.login_exists", player=player, username=player.user.username)
    user = new_login(
        username=username,
        password=password,
        email=email,
        full_name=f"{player.given_name} {player.surname}".strip(),
    )
    if username_taken(user.username):
        raise Conflict(
            "player.username_taken", username=user.username, details={"field": "username"}
        )
    with transaction.atomic():
        user.save()
        player.user = user
        player.save(update_fields=["user"])
        log(
            event,
            by=by,
            action="player.login_created",
            target=str(player),
            new={"user": user.username},
        )
    return user
