"""`{% load system_events %}{% system_events %}`: the system's recent events on an arbiter's
page (a restarted process, downtime credited to the clocks), nothing when there are none."""

from django import template

from arbiter.runtime import systemlog

register = template.Library()


@register.inclusion_tag("runtime/system_events.html")
def system_events():
    return {"system_events": systemlog.recent()}
