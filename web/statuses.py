"""What HTTP itself answers, in the reader's language: werkzeug's own words for a status.

Flask answers some requests before any view of Carolus runs: a path the page does not
have (404), a method a path does not take (405), a body that outgrows the limit while it
is read (413), and every other `werkzeug.exceptions.HTTPException`. Their words are
werkzeug's, so they are the msgids here, word for word: the English answer stays what it
always was, and the catalogs say it in every language of the page (issue 17). A status
werkzeug words differently one day is not found here and is answered in werkzeug's own
English, never wrongly; ``tests/web/test_web_statuses.py`` notices that and says so.

>>> from werkzeug.exceptions import NotFound
>>> from referee.announcements import ENGLISH
>>> answered(NotFound(), ENGLISH).title
'Not Found'
"""

from __future__ import annotations

from dataclasses import dataclass

from werkzeug.exceptions import HTTPException

from referee.announcements import N_, Translator, mark


@dataclass(frozen=True)
class Status:
    """One status as werkzeug words it: its short ``name`` (a msgid with the context
    ``http``, so a "Conflict" or "Locked" of the page's own is another entry) and the
    ``description`` a person reads (a msgid)."""

    code: int
    name: tuple[str, str]
    description: str


@dataclass(frozen=True)
class Answer:
    """A status in the reader's words: what the page shows as its title and sentence,
    and the JSON's ``error``."""

    code: int
    title: str
    text: str


#: Every status werkzeug raises by itself (`werkzeug.exceptions.default_exceptions`).
STATUSES: dict[int, Status] = {
    status.code: status
    for status in (
        Status(
            400,
            mark("http", "Bad Request"),
            N_("The browser (or proxy) sent a request that this server could not understand."),
        ),
        Status(
            401,
            mark("http", "Unauthorized"),
            N_(
                "The server could not verify that you are authorized to access the URL "
                "requested. You either supplied the wrong credentials (e.g. a bad password), or "
                "your browser doesn't understand how to supply the credentials required."
            ),
        ),
        Status(
            403,
            mark("http", "Forbidden"),
            N_(
                "You don't have the permission to access the requested resource. It is either "
                "read-protected or not readable by the server."
            ),
        ),
        Status(
            404,
            mark("http", "Not Found"),
            N_(
                "The requested URL was not found on the server. If you entered the URL manually "
                "please check your spelling and try again."
            ),
        ),
        Status(
            405,
            mark("http", "Method Not Allowed"),
            N_("The method is not allowed for the requested URL."),
        ),
        Status(
            406,
            mark("http", "Not Acceptable"),
            N_(
                "The resource identified by the request is only capable of generating response "
                "entities which have content characteristics not acceptable according to the "
                "accept headers sent in the request."
            ),
        ),
        Status(
            408,
            mark("http", "Request Timeout"),
            N_(
                "The server closed the network connection because the browser didn't finish "
                "the request within the specified time."
            ),
        ),
        Status(
            409,
            mark("http", "Conflict"),
            N_(
                "A conflict happened while processing the request. The resource might have been "
                "modified while the request was being processed."
            ),
        ),
        Status(
            410,
            mark("http", "Gone"),
            N_(
                "The requested URL is no longer available on this server and there is no "
                "forwarding address. If you followed a link from a foreign page, please contact "
                "the author of this page."
            ),
        ),
        Status(
            411,
            mark("http", "Length Required"),
            N_("A request with this method requires a valid <code>Content-Length</code> header."),
        ),
        Status(
            412,
            mark("http", "Precondition Failed"),
            N_("The precondition on the request for the URL failed positive evaluation."),
        ),
        Status(
            413,
            mark("http", "Request Entity Too Large"),
            N_("The data value transmitted exceeds the capacity limit."),
        ),
        Status(
            414,
            mark("http", "Request URI Too Long"),
            N_(
                "The length of the requested URL exceeds the capacity limit for this server. "
                "The request cannot be processed."
            ),
        ),
        Status(
            415,
            mark("http", "Unsupported Media Type"),
            N_("The server does not support the media type transmitted in the request."),
        ),
        Status(
            416,
            mark("http", "Requested Range Not Satisfiable"),
            N_("The server cannot provide the requested range."),
        ),
        Status(
            417,
            mark("http", "Expectation Failed"),
            N_("The server could not meet the requirements of the Expect header"),
        ),
        Status(
            418,
            mark("http", "I'm a teapot"),
            N_("This server is a teapot, not a coffee machine"),
        ),
        Status(
            421,
            mark("http", "Misdirected Request"),
            N_("The server is not able to produce a response."),
        ),
        Status(
            422,
            mark("http", "Unprocessable Entity"),
            N_("The request was well-formed but was unable to be followed due to semantic errors."),
        ),
        Status(
            423,
            mark("http", "Locked"),
            N_("The resource that is being accessed is locked."),
        ),
        Status(
            424,
            mark("http", "Failed Dependency"),
            N_(
                "The method could not be performed on the resource because the requested action "
                "depended on another action and that action failed."
            ),
        ),
        Status(
            428,
            mark("http", "Precondition Required"),
            N_(
                'This request is required to be conditional; try using "If-Match" or '
                '"If-Unmodified-Since".'
            ),
        ),
        Status(
            429,
            mark("http", "Too Many Requests"),
            N_("This user has exceeded an allotted request count. Try again later."),
        ),
        Status(
            431,
            mark("http", "Request Header Fields Too Large"),
            N_("One or more header fields exceeds the maximum size."),
        ),
        Status(
            451,
            mark("http", "Unavailable For Legal Reasons"),
            N_("Unavailable for legal reasons."),
        ),
        Status(
            500,
            mark("http", "Internal Server Error"),
            N_(
                "The server encountered an internal error and was unable to complete your "
                "request. Either the server is overloaded or there is an error in the "
                "application."
            ),
        ),
        Status(
            501,
            mark("http", "Not Implemented"),
            N_("The server does not support the action requested by the browser."),
        ),
        Status(
            502,
            mark("http", "Bad Gateway"),
            N_("The proxy server received an invalid response from an upstream server."),
        ),
        Status(
            503,
            mark("http", "Service Unavailable"),
            N_(
                "The server is temporarily unable to service your request due to maintenance "
                "downtime or capacity problems. Please try again later."
            ),
        ),
        Status(
            504,
            mark("http", "Gateway Timeout"),
            N_("The connection to an upstream server timed out."),
        ),
        Status(
            505,
            mark("http", "HTTP Version Not Supported"),
            N_("The server does not support the HTTP protocol version used in the request."),
        ),
    )
}


def answered(exc: HTTPException, tr: Translator) -> Answer:
    """``exc`` in the words of ``tr``. A description werkzeug was given by whoever raised
    it (not its own for the status) is nobody's msgid: it stays as it was written, the
    title is still translated."""
    code = exc.code or 500
    status = STATUSES.get(code)
    description = exc.description or ""
    if status is None:
        return Answer(code, exc.name, description or exc.name)
    title = str(tr.pgettext(*status.name)) if status.name[1] == exc.name else exc.name
    if description == status.description:
        description = tr.gettext(description)
    return Answer(code, title, description or title)
