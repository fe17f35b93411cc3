"""The words of the system: every code an error or an outcome carries, and its English.

The inner layers give codes and parameters (`rules` and `clocks` errors, the services'
`DomainError`s, how a game ended); the words users read are made here, in one place, so
that a translation has one table to follow. `rules` and `clocks` keep their own English for
their command line and library use; the words this system shows are these.
"""

from __future__ import annotations

import string
from datetime import datetime
from typing import Any

#: code -> English template (str.format; a list is joined with ", ", or with the separator
#: given as its format spec: "{errors:; }"; an error carrying a code is worded by its code).
MESSAGES: dict[str, str] = {
    # --- requests the API cannot read (arbiter/api.py)
    "request.invalid_fields": "{problems:; }",
    "request.not_json": "the request body is not valid JSON",
    "request.not_logged_in": "not logged in: send 'Authorization: Bearer <token>' or log in first",
    # the database down (arbiter/infra/unavailable.py: 503, with Retry-After)
    "request.database_unreachable": (
        "the database cannot be reached just now, so this request may not have been carried "
        "out: try again in {retry_after_s} seconds (a move sent again with the same request_id "
        "is entered once)"
    ),
    "request.no_endpoint": "no API endpoint at {path}",
    "request.bad_request": "bad request",
    "request.forbidden": "this request is not allowed",
    "request.too_large": "the request body is larger than {max_mib} MiB",
    "request.too_large_size": "the request body is larger than {max_mib} MiB ({size} bytes)",
    # --- input bounds (arbiter/validation.py): text a column can hold, numbers in range
    "text.field": "{field}: {problem}",
    "text.nul": "contains a NUL character at position {position}",
    "text.lone_surrogate": "contains a lone surrogate (not UTF-8) at position {position}",
    "text.too_long": "is {length} characters long; at most {max} are allowed",
    "text.value": "text {problem}",
    "after_round.out_of_range": (
        "after_round: {value!r} is not a round of '{event}' (0..{rounds})"
    ),
    # --- logins and API tokens (arbiter/accounts)
    "login.throttled_account": (
        "too many failed logins for this account ({limit} in {minutes} minutes): "
        "try again in {wait}"
    ),
    "login.throttled_address": (
        "too many failed logins for your network address ({limit} in {minutes} minutes): "
        "try again in {wait}"
    ),
    "login.wait_minutes": "{minutes} min {seconds} s",
    "login.wait_seconds": "{seconds} s",
    "login.wrong_credentials": "wrong username or password",
    "login.needed": "log in, send a token, or give username and password",
    "token.invalid": "the API token is not valid",
    # a board's tablet (arbiter/accounts/devices.py, arbiter/games/services/presses.py)
    "event.bad_lag_quota": "lag_quota_ms: {value!r} is not a number of ms in 0..{max}",
    "tablet.bad_code": "code: give the code the arbiter's page shows (1 to 100 characters)",
    "tablet.code_unknown": "this code is not known: check it on the arbiter's page",
    "tablet.code_used": "this code was used already: ask the arbiter for a new one",
    "tablet.code_expired": (
        "this code has expired (codes last {minutes} minutes): ask the arbiter for a new one"
    ),
    "tablet.only_device": "only a board's tablet can ask for its game",
    "press.moves_required": (
        "this event requires the move with each press: tap the piece and its square first"
    ),
    "press.not_next": "press {press} was sent, but the next press is {next_press}",
    "press.request_id_other_press": (
        "request_id was used for press {prior_press}, not press {press}"
    ),
    "press.not_your_clock": "it is {running}'s clock that runs; {side} cannot press it",
    "press.clock_not_running": "the clock is not running: nothing to press",
    "press.bad_thinking": "thinking_ms: {value!r} is not a duration in ms (0..{max})",
    "token.revoked": "the API token was revoked",
    "token.expired": "the API token expired at {expires_at}",
    "token.read_only": "this API token is read-only",
    "token.game_only": "this API token is for game {game_id} only",
    "token.event_only": "this API token is for event {event_id} only",
    "token.scope_game_refused": (
        "only an arbiter of '{event}' or a player may scope to game {game_id}"
    ),
    "token.scope_event_refused": (
        "only an arbiter or the organizer of '{event}' may scope a token to it"
    ),
    "token.bad_access": "access: '{access}' is not one of read, write",
    "token.bad_expiry": "expires_in_days: {days} is outside 1..{max}",
    "token.not_found": "token {token_id} not found",
    "token.scoped_cannot_issue": "a scoped token cannot issue tokens",
    "token.scoped_cannot_manage": "a scoped token cannot manage tokens",
    # --- problems inside one error: a line of a players' file, a board of a pairing
    "import.line": "line {line}: {reason}",
    "import.not_utf8": "the file is not UTF-8 text ({error})",
    "import.empty_file": "the file is empty: the first line must name the columns",
    "import.unknown_columns": "unknown column(s) {unknown}; known: {known}",
    "import.missing_columns": "missing column(s) {missing}",
    "import.duplicate_columns": "column(s) {columns} given twice",
    "import.field_count": "{fields} fields where the header has {columns}",
    "import.too_many_rows": "more than {max} players in one file",
    "import.unreadable_csv": "unreadable CSV ({error})",
    "import.fmjd_id_repeated": "fmjd_id {fmjd_id} is already on line {first}",
    "import.name_repeated": "{name} is already on line {first}",
    "import.already_entered": "{player} (FMJD {fmjd_id}) is already entered",
    "import.no_players": "no players in the file",
    "import.too_long": "the file has {chars} characters; at most {max}",
    "import.too_many_columns": "{columns} columns; at most {max} are read",
    "import.unreadable_header": "unreadable header ({error})",
    "import.header_shape": "the header must be one line of at most {max} names",
    "import.unclosed_quote": "a quote opened on this line is not closed before line {end}",
    "import.bad_lines_more": (
        "nothing imported: {count} bad line(s): {lines:; } (and {more} more)"
    ),
    "game.where": "round {round_number} board {board}",
    "field.absent_rounds": "absent rounds",
    "field.requested_bye": "requested bye",
    "pairing.bad_board": "board {board}: give [white player id, black player id or null]",
    "pairing.not_entered": "board {board}: player {player_id} is not entered in this event",
    "pairing.twice": "board {board}: player {player_id} is already on board {first}",
    "pairing.self": "board {board}: a player cannot play themself",
    "pairing.no_boards": "boards: give at least one board",
    # --- the services (arbiter.errors.DomainError)
    # act (a player's or the arbiter's act on a game: an offer, a claim, a resignation)
    "act.bad_side": "side must be 'white' or 'black' (the player the arbiter acts for), not {side!r}",
    "act.only_arbiter_or_player": (
        "only an arbiter of '{event}' or a player of this game may do this"
    ),
    "act.own_side_only": "the {own} player acts for {own} only, not for {side}",
    # login (an organizer makes a login for a new arbiter or for a player)
    "login.bad_password": "password: {problems: }",
    "login.bad_username": "username: {problems: }",
    "login.username_required": "username: give the new login's name",
    # arrival
    "arrival.bye_side": "board {board} has no {side} player (a bye)",
    "arrival.game_over": (
        "board {board} is already over ({result}, {termination}): {side} cannot be marked present"
    ),
    # arbiter (an organizer invites a new arbiter)
    "arbiter.username_taken": (
        "username: '{username}' is taken; choose them from the users instead"
    ),
    # claim (FMJD 6.1-6.4, the flag): the request, then the decision's explanation
    "claim.bad_article": "article must be one of {articles}, not {article!r}",
    "claim.bad_request_id": (
        "request_id must be a non-empty string of at most {max_length} characters"
    ),
    "claim.flag_side_required": (
        "a flag claimed by the arbiter names whose flag: flag_side 'white' or 'black'"
    ),
    "claim.not_found": "game {game_id} has no claim {claim_id}",
    "claim.opponents_flag_only": "the {claimant} player claims the opponent's flag ({other}) only",
    "claim.granted": "granted: FMJD {article} applied after ply {applied_at_ply}",
    "claim.granted_flag": "granted: {flag_side}'s time ran out ({white_ms} ms / {black_ms} ms)",
    "claim.game_over": "refused: the game is over ({result}, {termination})",
    "claim.flag_not_fallen": (
        "refused: {flag_side}'s clock shows {shows_ms} ms (white {white_ms} ms, black {black_ms} ms)"
    ),
    "claim.no_clock": "refused: the game has no running clock",
    "claim.not_in_force": "refused: the material of FMJD {article} is not on the board",
    "claim.game_decided": "refused: the game is won under FMJD {by_article}",
    "claim.too_early_6_1": (
        "refused: this position has occurred {count} time(s) of {limit} (after plies {occurred_at}), same side to move"
    ),
    "claim.too_early_6_2": (
        "refused: {count} of {limit} moves each with kings only ({plies} plies since ply {since_ply})"
    ),
    "claim.too_early": (
        "refused: {count} of {limit} moves each since the material of FMJD {article} arose after ply {since_ply}"
    ),
    "claim.unknown_article": "refused: FMJD {article} is not a draw rule (one of {articles})",
    # confirmation (both players confirm the result at the end of a game; the arbiter accepts)
    "confirmation.bad_result": "result: one of {codes}, not {result!r}",
    "confirmation.bye": "board {board} is a bye: there is no result to confirm",
    "confirmation.no_result": (
        "board {board} has no result yet ({status}): a result is confirmed once the game is over"
    ),
    "confirmation.already_approved": (
        "the arbiter has accepted {result} on board {board}: speak to the arbiter to change it"
    ),
    "confirmation.only_arbiter_or_player": (
        "only an arbiter of '{event}' or a player of this game sees its confirmations"
    ),
    # the state of a result's confirmations, in words (the round's page, the player's page)
    "confirmation.pending": "no result yet",
    "confirmation.agreed": "{result}, agreed by both",
    "confirmation.one_side": "{result}, confirmed by {side} only",
    "confirmation.unconfirmed": "{result}, not confirmed yet",
    "confirmation.disputed": "{result} recorded; {claims:; }",
    "confirmation.claim": "{side} says {result}",
    "confirmation.bye_words": "bye",
    # clock_action
    "clock_action.adjust_needs_side_and_delta": (
        "action 'adjust' needs 'side' ('white' or 'black') and 'delta_ms'"
    ),
    "clock_action.bad_delta": (
        "delta_ms must be a non-zero whole number of milliseconds, not {delta_ms!r}"
    ),
    "clock_action.bad_time": "{name} must be a whole number of milliseconds >= 0, not {value!r}",
    "clock_action.bad_time_control": "the event's time control {tag!r} cannot run a clock: {error}",
    "clock_action.flag_fell": "{flag_side}'s flag fell at {at}: the game is over",
    "clock_action.game_over": "the game is over ({result}, {termination}): its clock cannot change",
    "clock_action.no_clock": "game {game} has no clock yet: start it first",
    "clock_action.reason_required": (
        "a reason is required to {action} a clock (it goes into the clock's log)"
    ),
    "clock_action.refused": "cannot {action} the clock of game {game}: {error}",
    "clock_action.set_needs_both": "action 'set' needs both 'white_ms' and 'black_ms'",
    "clock_action.unknown": "unknown clock action {action!r}: one of {actions}",
    "clock_action.unknown_round_action": "unknown round clock action {action!r}: one of {actions}",
    # entry
    "entry.already_entered": "{player} is already entered in '{event}'",
    "entry.already_withdrawn": "{player} has already withdrawn from '{event}'",
    "entry.event_finished": "'{event}' is finished: no more entries",
    "entry.no_such_number": "no player number {number} in '{event}'",
    "entry.not_found": "entry {entry_id} not found",
    "entry.only_arbiter_or_player": (
        "only an arbiter of '{event}' or {player} themself may change this entry"
    ),
    "entry.round_robin_fixed": (
        "'{event}' is a round robin and round 1 is paired: its table is fixed, no late entries"
    ),
    "entry.round_robin_no_bye": (
        "'{event}' is a round robin: every round is paired; announce an absence"
    ),
    "entry.rounds_already_paired": (
        "{what}: round(s) {paired} are already paired; an arbiter records the forfeit instead"
    ),
    "entry.rounds_do_not_exist": "{what}: round(s) {rounds} do not exist (1..{last})",
    "entry.rounds_missing": "{what}: give round numbers",
    # event
    "event.bad_choice": "{field}: '{value}' is not one of {allowed}",
    "event.bad_date": "{field}: '{value}' is not a date (YYYY-MM-DD)",
    "event.bad_late_arrival": "late_arrival_minutes: {value!r} is outside 0..{max} (FMJD)",
    "event.bad_new_status": (
        "status: a new event is a draft or open for registration; it runs when round 1 is paired"
    ),
    "event.bad_points": "{field}: {value!r} is not a number of points (0..100)",
    "event.bad_rounds": "rounds: {value!r} is not a number of rounds (1..99)",
    "event.bad_time_control": (
        "time_control: {error} (e.g. '50/7200:25/3600', '4800+60', '45/5400+30:1800+30')"
    ),
    "event.end_before_start": "end_date: before start_date",
    "event.games_without_result": "status: {unfinished} game(s) have no result yet",
    "event.name_required": "name: an event needs a name",
    "event.no_such_slug": "no event '{slug}'",
    "event.not_found": "event {event_id} not found",
    "event.numbers_fixed": "'{event}' has started: its pairing numbers are fixed",
    "event.only_arbiter_or_organizer": "only an arbiter or the organizer of '{event}' may do this",
    "event.only_organizer": "only the organizer of '{event}' may do this",
    "event.only_organizers_create": (
        "only organizers (permission 'events.add_event') may create events"
    ),
    "event.only_organizers_create_ask": (
        "only organizers may create events: ask the site's administrator for the organizer's permission ('events.add_event')"
    ),
    "event.not_boolean": "{field}: give true or false",
    "event.rounds_already_paired": "rounds: {paired} rounds are already paired",
    "event.rounds_required": "rounds: a Swiss event needs its number of rounds",
    "event.seed_required": "pairing_seed: numbering by lot needs the drawn lot (a seed)",
    "event.settings_fixed": "{fixed:; }",
    "event.setting_fixed": "{field}: {why}",
    "event.fixed_when_paired": (
        "fixed once round 1 is paired: the pairings already made depend on it"
    ),
    "event.fixed_when_published": (
        "fixed once round 1 is published: the players were told these rules before they played"
    ),
    "event.status_cannot_go_back": (
        "status: '{event}' has paired rounds; it cannot go back to {new}"
    ),
    "event.time_control_swapped": (
        "time_control: '{period}' gives {moves} moves in {seconds} s; PDN writes the number of moves first (did you mean '{seconds}/{moves}'?)"
    ),
    "event.unknown_setting": "{field}: not a setting of an event",
    "event.unknown_settings": "{unknown}: not a setting of an event",
    "event.too_many_periods": "time_control: {periods} periods; at most {max}",
    "event.period_out_of_bounds": "time_control: '{period}': {problems:; }",
    "event.period_too_long": "{seconds} s is more than {max} s (a day)",
    "event.increment_too_long": "an increment of {seconds} s is more than {max} s",
    "event.period_too_many_moves": "{moves} moves is more than {max}",
    # forfeit
    "forfeit.bad_absent": "absent: '{absent}' is not one of white, black, both",
    "forfeit.reason_required": "reason: say why the game is forfeited",
    # game
    "game.bad_side": "side must be 'white' or 'black', not {side!r}",
    "game.over": "the game is over ({result}, {termination})",
    "game.not_found": "game {game_id} does not exist",
    # import
    "import.bad_lines": "nothing imported: {count} bad line(s): {lines:; }",
    # irregularity (FMJD 5)
    "irregularity.accident_reason_required": "say what happened (the reason is logged)",
    "irregularity.already_pending": (
        "an irregularity already waits for the opponent's choice (FMJD 5.4)"
    ),
    "irregularity.annul_reason_required": "say what was wrong (the reason is logged)",
    "irregularity.bad_choice": (
        "choice must be 'rectify' or 'maintain' (FMJD 5.4; no partial rectification, 5.8), not {choice!r}"
    ),
    "irregularity.bad_fen": "fen_on_board: {error}",
    "irregularity.bad_kind": "kind must be one of {kinds} (FMJD 5.4), not {kind!r}",
    "irregularity.decided": (
        "irregularity {irregularity_id} was decided already ({status}); no second choice (FMJD 5.7, 5.8)"
    ),
    "irregularity.not_found": "game {game_id} has no irregularity {irregularity_id}",
    "irregularity.opponent_chooses": (
        "only {chooser}, the opponent of the player who committed the irregularity, chooses (FMJD 5.4)"
    ),
    # move
    "move.ambiguous_at_ply": (
        "move {move!r} at ply {ply} is ambiguous: {reason}; give every landing square"
    ),
    "move.bad_move_text": "move must be a move in PDN notation such as '32-28', not {move!r}",
    "move.bad_ply": "ply must be a whole number from 1 (the next ply), not {ply!r}",
    "move.bad_request_id": (
        "request_id must be a non-empty string of at most {max_length} characters (the client's id of this submission, the same on every retry)"
    ),
    "move.claim_ended_game": (
        "the game ended by a claim decided before this move ({result}, {termination}): {words}"
    ),
    "move.claim_pending": (
        "a claim is being decided: the move waits for its decision (event rule)"
    ),
    "move.clocks_not_started": "the clocks have not been started: an arbiter starts them first",
    "move.clocks_paused": "the clocks are paused: an arbiter resumes them first",
    "move.flag_fell": (
        "{flag_side}'s flag fell at {at}: no move until the flag is claimed or an arbiter gives time back"
    ),
    "move.game_over": "the game is over ({result}, {termination}): no more moves",
    "move.illegal_at_ply": "move {move!r} at ply {ply} is not legal: {reason}",
    "move.irregularity_pending": (
        "an irregularity ({kind} by {side}) waits for {chooser}'s choice: rectify or maintain (FMJD 5.4); a move by the opponent accepts it (5.7): enter it as the acceptance"
    ),
    "move.lost_by_late_arrival": (
        "the game is over: lost by forfeit ({result}), a player was not at the board {minutes} min after the round's start"
    ),
    "move.not_next_ply": (
        "ply {ply} is not the next ply: the game is at ply {game_ply}, so the next move is ply {next_ply}"
    ),
    "move.not_your_turn": "it is {turn}'s turn: the {side} player may not move now",
    "move.only_arbiter_or_player": (
        "only an arbiter of '{event}' or a player of this game may enter moves"
    ),
    "move.ply_stored_meanwhile": (
        "ply {ply} was stored meanwhile by another request; read the game again"
    ),
    "move.request_id_other_move": (
        "request_id was already used for ply {prior_ply} ({prior_notation}), not for {move!r}: a new submission needs a new request_id"
    ),
    "move.request_id_other_ply": (
        "request_id was already used for ply {prior_ply} ({prior_notation}), not ply {ply}"
    ),
    "move.time_ran_out": "{side}'s time ran out: the move is refused",
    "move.time_ran_out_flag_recorded": (
        "{flag_side}'s time ran out at {at}: the move is refused and the flag recorded"
    ),
    # offer (a draw offer, FMJD 7.3.1)
    "offer.move_first": (
        "a draw is offered after one's own move (FMJD 7.3.1 procedure: move, offer, press the clock): it is {side}'s turn to move first"
    ),
    "offer.none_pending": "no draw offer is pending",
    "offer.offered_last": (
        "{side} offered last (at ply {ply}): the same player may not offer again before the opponent has offered"
    ),
    "offer.own_offer": "{side} made the offer: only the opponent accepts it",
    "offer.pending": "{side}'s offer made at ply {ply} is pending",
    "offer.too_early": (
        "too early: {side} has played {played} moves; a draw may be offered from the {min_moves}th move (event rule)"
    ),
    # pages (arbiter.events.views.EventRefused: a 403 that names whom to ask)
    "page.only_arbiters": "only the arbiters and the organizer of '{event}' may do this",
    "page.only_arbiters_desk": "only the arbiters and the organizer of '{event}' may use its desk",
    "page.only_organizer_settings": "only the organizer of '{event}' may change its settings",
    # pdn (the official record's export) and pdn_import (an arbiter's file of games)
    "pdn.board_not_found": "round {number} board {board} of '{slug}' not found or not published",
    "pdn.event_not_found": "event '{event}' not found",
    "pdn.game_not_found": "game {game_id} not found (or its round is not published)",
    "pdn.round_not_found": "round {round_id} not found (or not published)",
    "pdn.round_number_not_found": "round {number} of '{slug}' not found",
    "pdn_import.empty_file": "file: the PDN file is empty",
    "pdn_import.file_too_large": "file: {size} bytes, more than {max}",
    "pdn_import.not_found": "PDN import {job_id} does not exist",
    "pdn_import.nothing_to_apply": "the file is {status}: nothing to apply",
    # pairing
    "pairing.boards_in_play": (
        "round {round_number} has play or results on board(s) {boards}: change the results first"
    ),
    "pairing.invalid": "{errors:; }",
    "pairing.reason_required": "reason: say why the pairing is changed",
    # player
    "player.bad_federation": "federation: '{federation}' is not a three-letter code (e.g. NED)",
    "player.bad_fmjd_id": "fmjd_id: '{fmjd_id}' is not a number",
    "player.bad_rating": "rating: '{rating}' is not a whole number",
    "player.bad_title": "title: '{title}' is not a title (GMI, MI, MF, ...)",
    "player.fmjd_id_taken": (
        "fmjd_id: {fmjd_id} is already the FMJD id of {other} (player {other_id})"
    ),
    "player.login_exists": "{player} already has a login ('{username}')",
    "player.username_taken": "username: '{username}' is taken; choose another login name",
    "player.login_taken": "user '{user}' is already the login of {taken}",
    "player.not_found": "player {player_id} not found",
    "player.only_organizers_and_arbiters": "only organizers and arbiters may register players",
    "player.only_organizers_link": "only organizers may link a login to a player",
    "player.rating_out_of_range": "rating: {value} is outside 0..{max}",
    "player.surname_required": "surname: a player needs a surname",
    "player.unknown_fields": "{unknown}: not a field of a player",
    # result
    "result.bye_needs_no_opponent": "{where}: 'bye' is only for a player without an opponent",
    "result.bye_only": "{where}: this board is a bye; its only result is 'bye'",
    "result.correction_needs_reason": (
        "round {round_number} board {board} already has the result '{result}': say why it is corrected"
    ),
    "result.round_not_published": (
        "round {round_number} is not published yet: no results before that"
    ),
    "result.termination_mismatch": (
        "{where}: a game that ended by '{termination}' cannot score '{result}'"
    ),
    "result.termination_without_result": "{where}: a game without a result has no termination",
    "result.unknown": "{where}: '{result}' is not a result code (one of {codes})",
    "result.unknown_termination": "{where}: '{termination}' is not a way a game ends ({values})",
    # round
    "round.all_paired": "all {rounds} rounds of '{event}' are paired",
    "round.already_published": "round {round_number} is already published",
    "round.bad_start": "scheduled_start: give a date and time, e.g. 2026-05-01T13:30:00Z",
    "round.boards_in_play": "round {round_number} has play or results on board(s) {boards}",
    "round.cannot_pair": "round {number} of '{event}' cannot be paired: {error}",
    "round.event_finished": "'{event}' is finished",
    "round.finished_start_fixed": (
        "round {round_number} is finished: its start can no longer change"
    ),
    "round.no_published_round": "no published round '{value}'",
    "round.not_found": "round {round_id} does not exist",
    "round.not_published_in_event": "round {number} of '{event}' is not published",
    "round.previous_not_finished": (
        "round {round_number} is not finished: no result on board(s) {boards}"
    ),
    "round.previous_not_published": "round {round_number} is not published yet: publish it first",
    "round.start_without_zone": (
        "scheduled_start: give the time zone (e.g. 13:30:00Z or 15:30:00+02:00)"
    ),
    "round.too_few_players": "'{event}' needs at least two players to pair a round",
    "round.unpair_only_last": "only the last round ({round_number}) can be unpaired",
    # ruling (an arbiter's decision that ends a game)
    "ruling.bad_result": "a ruling by '{termination}' cannot score {result!r}",
    "ruling.bad_termination": "termination must be one of {terminations}, not {termination!r}",
    "ruling.reason_required": "a ruling needs the arbiter's written reason (a few words at least)",
    # sheet (a notation sheet, FMJD 10.2)
    "sheet.approved_already": (
        "{where}: the arbiter approved the record of this game on {approved_at} UTC; a correction now is the arbiter's"
    ),
    "sheet.bad_result_stands": "result_stands must be one of {choices}",
    "sheet.cannot_be_record": "{where}: {side} v{version} cannot be the record: {problem}; edit it first",
    "sheet.edit_reason_required": "reason: say why the record is edited",
    "sheet.empty": "text: the sheet is empty; give its moves, e.g. '1. 32-28 19-23 2. 28x19 14x23'",
    "sheet.game_running": "{where}: the game is being played; approve its record after it",
    "sheet.not_checked": "{where}: {side} v{version} cannot be the record: it is not checked; edit it first",
    "sheet.not_found": "notation sheet {sheet_id} does not exist",
    "sheet.only_arbiters_compare": "only an arbiter of '{event}' compares the sheets",
    "sheet.only_players_and_arbiters": (
        "game {game_id}: only its players and the event's arbiters see its sheets"
    ),
    "sheet.own_game_only": "{where}: you may submit the notation sheet of your own game only",
    "sheet.replace_reason_required": (
        "{where}: {side} v{version} is the approved record; say why another version replaces it"
    ),
    "sheet.result_differs": (
        "{where}: the sheet gives {sheet_result}, the entered result is {entered}: say which one stands (result_stands: sheet or entered)"
    ),
    "sheet.round_not_published": "{where}: round {round_number} is not published yet",
    "sheet.too_long": "text: the sheet has {length} characters, more than {max}",
    "sheet.unknown_action": "unknown action {action!r}",
    "sheet.upload_too_large": "file: {name} is larger than {max} bytes",
    # tiebreaks
    "tiebreaks.duplicates": "tiebreaks: {dupes} listed twice; give each tie-break once, in order",
    "tiebreaks.not_a_list": "tiebreaks: give a list of tie-break codes",
    "tiebreaks.unknown": "tiebreaks: unknown code(s) {unknown}; known: {known}",
    # user
    "user.not_found": "no user(s) {missing}",
    # --- the labels of the models' choices (the stored value is the code)
    "choice.event.system.round_robin": "Round robin",
    "choice.event.system.double_round_robin": "Double round robin",
    "choice.event.system.swiss": "Swiss",
    "choice.event.pairing_system.fmjd": "Swiss (FMJD style)",
    "choice.event.pairing_system.dutch": "FIDE Dutch system (C.04.3)",
    "choice.event.pairing_system.dutch_baku": "FIDE Dutch system with Baku acceleration (C.04.5.1)",
    "choice.event.status.draft": "Draft",
    "choice.event.status.registration": "Registration",
    "choice.event.status.running": "Running",
    "choice.event.status.finished": "Finished",
    "choice.event.flagpolicy.automatic": "Flag ends the game at once",
    "choice.event.flagpolicy.claim": "Flag is recorded; the game ends on a claim",
    "choice.event.numbering.rating": "By rating, then name, when the event starts",
    "choice.event.numbering.entry": "As entered",
    "choice.event.numbering.lot": "By drawing of lots (pairing seed), when the event starts",
    "choice.entry.status.active": "Active",
    "choice.entry.status.withdrawn": "Withdrawn",
    "choice.round.status.draft": "Draft",
    "choice.round.status.published": "Published",
    "choice.round.status.finished": "Finished",
    "choice.game.result.pending": "Not played yet",
    "choice.game.result.white_wins": "2-0",
    "choice.game.result.draw": "1-1",
    "choice.game.result.black_wins": "0-2",
    "choice.game.result.white_forfeit_win": "+/- (black forfeits)",
    "choice.game.result.black_forfeit_win": "-/+ (white forfeits)",
    "choice.game.result.double_forfeit": "-/- (both forfeit)",
    "choice.game.result.bye": "Bye",
    "choice.game.status.scheduled": "Scheduled",
    "choice.game.status.running": "Running",
    "choice.game.status.finished": "Finished",
    "choice.endingrules.moveduringclaim.claim_first": (
        "The pending claim is decided first, then the move"
    ),
    "choice.endingrules.moveduringclaim.refuse": "The move is refused until the claim is decided",
    "choice.endingrules.flagvsloneking.loss": (
        "A flag loses, whatever the opponent has left (the plain reading)"
    ),
    "choice.endingrules.flagvsloneking.draw": (
        "A flag is a draw when the opponent has only a lone king (FMJD 7.3.3)"
    ),
    "choice.drawoffer.status.pending": "Pending",
    "choice.drawoffer.status.accepted": "Accepted",
    "choice.drawoffer.status.declined": "Declined by a move",
    "choice.drawoffer.status.lapsed": "Lapsed (the game ended otherwise)",
    "choice.claim.status.pending": "Pending",
    "choice.claim.status.granted": "Granted",
    "choice.claim.status.refused": "Refused",
    "choice.irregularity.kind.played_twice": "Played twice in a row",
    "choice.irregularity.kind.irregular_move": "An irregular move",
    "choice.irregularity.kind.touched_other": "Touched one piece and played another",
    "choice.irregularity.kind.took_back": "Took back a move",
    "choice.irregularity.kind.moved_opponent_piece": "Moved an opponent's piece",
    "choice.irregularity.kind.not_capturing": "Did not capture",
    "choice.irregularity.kind.wrong_capture_count": "Captured fewer or more pieces than required",
    "choice.irregularity.kind.stopped_capture": "Stopped during a capture",
    "choice.irregularity.kind.removed_wrongly": "Removed pieces wrongly",
    "choice.irregularity.kind.not_crowned": "Did not crown a man",
    "choice.irregularity.kind.uncrowned_king": "Played with an uncrowned king",
    "choice.irregularity.kind.two_hands": "Used two hands",
    "choice.irregularity.status.pending": "Waiting for the opponent's choice",
    "choice.irregularity.status.rectified": "Rectified (FMJD 5.4)",
    "choice.irregularity.status.maintained": "Maintained (FMJD 5.4)",
    "choice.irregularity.status.accepted": "Accepted by the opponent's move (FMJD 5.7)",
    "choice.irregularity.status.lapsed": "Lapsed (the game ended otherwise)",
    "choice.notationsheet.side.white": "White's sheet",
    "choice.notationsheet.side.black": "Black's sheet",
    "choice.notationsheet.side.arbiter": "Arbiter's version",
    "choice.notationsheet.status.pending": "Being checked",
    "choice.notationsheet.status.checked": "Checked: every move legal",
    "choice.notationsheet.status.problem": "Checked: a move cannot be played",
    "choice.pdnimport.status.pending": "Waiting to be read",
    "choice.pdnimport.status.reading": "Being read",
    "choice.pdnimport.status.read": "Read: check the matches, then apply",
    "choice.pdnimport.status.applied": "Applied",
    "choice.pdnimport.status.failed": "Could not be read",
    "choice.side.white": "White",
    "choice.side.black": "Black",
    # --- the rules engine (rules.errors): why a move, a FEN or a record is refused
    "move.not_legal": "not a legal move in this position",
    "move.not_text": "a move must be given as text such as '32-28'",
    "move.bad_notation": (
        "not a move: expected squares 1-50 separated by '-' (move) or 'x' (capture), e.g. '32-28' or '28x17' (FMJD 8.2)"
    ),
    "move.not_a_square": "{square} is not a square (1-50, FMJD 2.6)",
    "move.no_legal_move": "{side} has no legal move (FMJD 7.2.2/7.2.3): the game is over",
    "move.opponents_piece": "the piece on {square} is {owner}'s and {side} is to move (FMJD 3.3)",
    "move.no_piece": "there is no piece on {square}",
    "move.majority": (
        "the majority rule (FMJD 4.13) requires taking {required} pieces; this capture takes {taken}"
    ),
    "move.capture_compulsory": "capture is compulsory (FMJD 4.1): {possible} is possible",
    "move.no_such_capture": (
        "no legal capture goes from {start} to {end} this way; captures are compulsory and the one taking the most pieces must be played (FMJD 4.1, 4.13): {possible}"
    ),
    "move.not_a_capture_position": (
        "this is not a capture position: a move has only a start and an end square"
    ),
    "move.square_occupied": "square {square} is occupied",
    "move.king_not_diagonal": "{start} and {end} are not on one diagonal (FMJD 3.9)",
    "move.king_blocked": "the king's way from {start} to {end} is blocked (FMJD 3.9)",
    "move.man_backwards": "a man moves forwards only (FMJD 3.4)",
    "move.man_one_square": "a man moves one square diagonally forwards (FMJD 3.4)",
    "move.ambiguous": (
        "ambiguous: {count} different captures match; write every landing square: {candidates}"
    ),
    "fen.not_text": "a FEN must be a string, not {type}",
    "fen.empty": "it is empty (expected e.g. 'W:W31-50:B1-20')",
    "fen.bad_turn": "field 1 must be the side to move, 'W' or 'B'",
    "fen.no_pieces_field": "no pieces field after the side to move (e.g. 'W:W31-50:B1-20')",
    "fen.empty_field": "field {field} is empty (expected 'W' or 'B' then squares)",
    "fen.bad_colour": "field {field} must start with 'W' or 'B' (whose pieces), not {letter!r}",
    "fen.colour_twice": "field {field} lists {colour}'s pieces a second time",
    "fen.empty_item": "field {field} ({colour}) has an empty item between commas",
    "fen.bad_item": "{item!r} in {colour}'s pieces is not a square, 'K'+square or a range",
    "fen.not_a_square": "{square} in {colour}'s pieces is not a square (1-50)",
    "fen.range_backwards": "range {item!r} in {colour}'s pieces runs backwards",
    "fen.square_both_colours": "square {square} is listed twice, for White and for Black",
    "fen.square_twice": "square {square} is listed twice in {colour}'s pieces",
    "game.nothing_to_take_back": "no move to take back",
    "game.bad_setup_article": (
        "a position is set within a game under FMJD art. 5 (e.g. '5.4'), not {article!r}"
    ),
    "state.bad_setup": "rules state: a setup needs 'setup' and 'article': {entry!r}",
    "pdn.bad_setup_fen": "bad FEN in the setup {setup!r}: {error}",
    "state.bad_version": "unknown rules state version {version!r}",
    "state.history_mismatch": "rules state: the history must end with the current position",
    "state.move_count": "rules state: {count} moves listed for ply {ply}",
    "state.bad_endgame_rule": "rules state: unknown endgame rule {rule!r}",
    "state.bad_counters": "rules state: the counters do not match the position",
    "state.unreadable": "bad rules state: {error}",
    "state.moves_mismatch": "rules state: the move list does not lead to the stored position",
    # --- the clocks (clocks.errors), and where in a time control tag the fault is
    "time_control.in_part": " in {part!r}",
    "time_control.in_part_of_tag": " in {part!r} of TimeControl tag {tag!r}",
    "time_control.bad_moves": "number of moves must be a positive integer, not {moves!r}",
    "time_control.bad_time": "time must be a non-negative integer of ms, not {time_ms!r}",
    "time_control.bad_increment": (
        "increment must be a non-negative integer of ms, not {increment_ms!r}"
    ),
    "time_control.increment_without_kind": (
        "an increment needs a kind (fischer, bronstein or delay)"
    ),
    "time_control.not_whole_seconds": "the PDN tag counts whole seconds; {what} {ms} ms is not one",
    "time_control.sandclock": "the sandclock (hourglass) is not supported",
    "time_control.whole_tag_only": "{part!r} must be the whole tag, not one period",
    "time_control.bad_period": (
        "expected SECONDS, MOVES/SECONDS, optionally followed by +INC, bINC or dINC"
    ),
    "time_control.zero_moves": "the number of moves must be at least 1",
    "time_control.rest_not_last": (
        "period {number} is for the rest of the game but periods follow it"
    ),
    "time_control.rest_period_not_last": "a period for the rest of the game must be the last one",
    "time_control.not_text": "a TimeControl tag is a string, not {type}",
    "time_control.empty": "the TimeControl tag is empty",
    "time_control.unknown": "the time control is unknown ('?')",
    "time_control.untimed_no_periods": "an untimed game ('-') has no periods",
    "time_control.bad_period_index": "period index must be >= 0, not {index}",
    "time_control.untimed_no_clock": "an untimed game ('-') has no clock",
    "clock.bad_pair": "{what} must be a pair of integers (white, black), not {value!r}",
    "clock.bad_now": "now must be an aware datetime (UTC), not {now!r}",
    "clock.negative_value": "negative clock value in {state}",
    "clock.bad_spent": "spent_ms must be >= 0, not {spent_ms}",
    "clock.running_since_not_running": "running_since is set only while a clock runs",
    "clock.running_without_since": "a running clock needs running_since",
    "clock.time_backwards": "now {now} is before {since}",
    "clock.already_started": "the clocks have already been started",
    "clock.not_running": "no clock is running: start the clocks first",
    "clock.paused": "the clocks are paused: resume them before a move",
    "clock.nothing_to_pause": "no clock is running: nothing to pause",
    "clock.already_paused": "the clocks are already paused",
    "clock.not_paused": "the clocks are not paused",
    "clock.bad_delta": "delta_ms must be an integer of milliseconds, not {delta_ms!r}",
    "clock.below_zero": (
        "cannot take {taken} ms from {side}: its clock shows {shows} ms (the lowest it may go is 0)"
    ),
    "clock.bad_time": "{name} must be an integer of milliseconds >= 0, not {value!r}",
    "clock.running_needs_now": "a clock is running: give `now`, or pause the clocks first",
    "clock.flag_fallen": "{side}'s flag fell at {deadline} ({over_by_ms} ms before the move)",
    # --- how a game ended (rules.Termination): its name, and why, for the event's log
    "ending.automatic": "automatic: {why}",
    "why.no_pieces": "no pieces left (FMJD 7.2.3)",
    "why.blocked": "no legal move for the side to play (FMJD 7.2.2)",
    "why.draw_repetition": "same position a third time, same side to move (FMJD 6.1)",
    "why.draw_25_moves": "25 moves each with kings only, no man move, no capture (FMJD 6.2)",
    "why.draw_16_moves": "16 moves each in a 6.3 ending (FMJD 6.3)",
    "why.draw_5_moves": "5 moves each in a 6.4 ending (FMJD 6.4)",
    "why.flag": "time exceeded",
    "termination.no_pieces": "No pieces",
    "termination.blocked": "Blocked",
    "termination.resigned": "Resigned",
    "termination.refused_rules": "Refused rules",
    "termination.flag": "Flag",
    "termination.agreed_draw": "Agreed draw",
    "termination.draw_repetition": "Draw repetition",
    "termination.draw_25_moves": "Draw 25 moves",
    "termination.draw_16_moves": "Draw 16 moves",
    "termination.draw_5_moves": "Draw 5 moves",
    "termination.no_win_possible": "No win possible",
    "termination.forfeit": "Forfeit",
    "termination.arbiter": "Arbiter",
    "termination.bye": "Bye",
}


class Problem:
    """One of several things wrong inside one error (a line of a file, a board of a
    pairing): a code and its params, worded like an error."""

    def __init__(self, code: str, /, **params: Any):
        if code not in MESSAGES:
            raise LookupError(f"code {code!r} has no words in arbiter/messages.py")
        self.code = code
        self.params = params

    def __repr__(self) -> str:
        return f"Problem({self.code!r}, {self.params!r})"

    def __str__(self) -> str:
        return render(self.code, self.params)


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, list | tuple | set | frozenset):
            return (format_spec or ", ").join(self.format_field(v, "") for v in value)
        if _is_coded(value):
            return render(value.code, value.params)
        return super().format_field(value, format_spec)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion is None or _is_coded(value) or isinstance(value, list | tuple):
            return value
        return super().convert_field(value, conversion)


_formatter = _Formatter()


def _is_coded(value: Any) -> bool:
    return isinstance(getattr(value, "code", None), str) and isinstance(
        getattr(value, "params", None), dict
    )


def render(code: str, params: dict[str, Any] | None = None) -> str:
    """The English of `code` with `params`; KeyError for a code that has no words."""
    params = params or {}
    text = _formatter.format(MESSAGES[code], **params)
    if code.startswith("time_control.") and "part" in params:  # where in the tag
        where = "time_control.in_part_of_tag" if "tag" in params else "time_control.in_part"
        text += _formatter.format(MESSAGES[where], **params)
    return text


def words(error: Any) -> str:
    """The English of anything that carries `code` and `params` (an error of rules, clocks
    or the services)."""
    return render(error.code, error.params)


def label(code: str) -> str:
    """The label of a model's choice, e.g. label("event.system.swiss") -> "Swiss"."""
    return MESSAGES[f"choice.{code}"]


def termination(value: str) -> str:
    """The words for how a game ended (a `rules.Termination` value), e.g. "Draw 25 moves"."""
    return MESSAGES[f"termination.{value}"]


def automatic_ending(termination: str) -> str:
    """The event log's reason for a game that ended by itself (a rule, the flag)."""
    why = MESSAGES.get(f"why.{termination}")
    return render("ending.automatic", {"why": why or termination})


def jsonable(value: Any) -> Any:
    """`params` as JSON: numbers, strings, lists as they are; an inner error as its code and
    params; dates as ISO 8601; anything else (a model row) as its text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if _is_coded(value):
        return {"code": value.code, "params": jsonable(value.params)}
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)
