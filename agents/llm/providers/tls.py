"""The certificate store the providers' HTTP clients verify servers with: one per process and HTTP
library, made as that library makes it for a client left to its default (verification on,
SSL_CERT_FILE and SSL_CERT_DIR honoured).

Loading a store costs some 40-70 ms of CPU, and every SDK client loads its own (a Gemini client
two, a Mistral client two): a run that makes a transport for each match and side, or `doctor`
checking four providers, paid it again and again. A context is safe to share: the clients only
read it, but for the ALPN protocols each connection sets, the same (HTTP/1.1) for all of them.
"""

from __future__ import annotations

import ssl
import threading
from types import ModuleType

_LOCK = threading.Lock()
_STORES: dict[str, ssl.SSLContext] = {}


def shared_ssl_context(http: ModuleType) -> ssl.SSLContext:
    """The SSL context ``http`` (httpx or httpx2, as imported by the caller) gives a client made with
    its default ``verify``, made on the first call with that library and given to every later one."""
    with _LOCK:
        if http.__name__ not in _STORES:
            _STORES[http.__name__] = http.create_ssl_context()
        return _STORES[http.__name__]
