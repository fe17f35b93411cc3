"""Template helpers for the event pages: the events a visitor may see, and small formats."""

from django import template

from arbiter.events import presentation, selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def visible_events(context):
    """The events the visitor may see (published ones; drafts for their organizer/arbiters),
    so that any page (the home page) can list them without a view of its own."""
    request = context.get("request")
    return selectors.visible_events(getattr(request, "user", None)).order_by("-start_date", "name")


@register.filter
def player_name(player) -> str:
    return presentation.player_name(player)
