"""Reading rendered pages in tests."""

import re


def text(response) -> str:
    """The page's text with tags removed and spaces collapsed, for content assertions."""
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", body)
