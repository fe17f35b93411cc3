"""The peer of the move-entry benchmark: a bare Django endpoint doing one locked write per move
(docs/design.md, "Why the hot path uses plain SQL"), served beside the real API."""

from django.db import connection, transaction
from django.http import JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from arbiter.games.models import Game
from arbiter.urls import urlpatterns as project_urlpatterns


@csrf_exempt
def bare_move(request, game_id: int):
    with transaction.atomic():
        query = Game.objects.only("id", "ply")
        if connection.features.has_select_for_update:
            query = query.select_for_update()
        game = query.get(pk=game_id)
        game.ply += 1
        game.save(update_fields=["ply"])
    return JsonResponse({"ply": game.ply}, status=201)


urlpatterns = [path("bare/<int:game_id>", bare_move), *project_urlpatterns]
