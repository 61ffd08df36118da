"""A small browser for the web pages: keeps cookies, posts forms, never follows redirects (tests look at them)."""
import http.client
import json
import re
import urllib.parse


class Browser:
    def __init__(self, server, headers=None, source=None):
        """`source`: the loopback address to connect from (127.0.0.2 …), for a client the server must count apart."""
        self.server = server
        self.source = source
        self.cookies = {}
        self.headers = headers or {}
        self.last_set_cookies = []

    def request(self, method, path, form=None, body=None, headers=None, raw=None):
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.server.port, timeout=30, source_address=(self.source, 0) if self.source else None)
        all_headers = dict(self.headers)
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        payload = None
        if form is not None:
            payload = urllib.parse.urlencode(form).encode()
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            payload = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        elif raw is not None:
            payload = raw
        all_headers.update(headers or {})
        connection.request(method, urllib.parse.quote(path, safe="/?&=%:"), payload, all_headers)
        response = connection.getresponse()
        response.body = response.read()
        response.text = response.body.decode(errors="replace")
        self.last_set_cookies = response.headers.get_all("Set-Cookie") or []
        for line in self.last_set_cookies:
            name, _, rest = line.partition("=")
            value = rest.split(";")[0]
            if "Max-Age=0" in line:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        connection.close()
        return response

    def csrf(self, path="/login"):
        """The CSRF token of the first form on a page."""
        page = self.request("GET", path)
        match = re.search(r'name="_csrf" value="([^"]+)"', page.text)
        assert match, page.text
        return match.group(1)

    def sign_in(self, username, password, next_path=None):
        # A signed-in browser is sent on from /login; its forms carry the session's token.
        signed_in = self.request("GET", "/login").status == 303
        form = {"_csrf": self.csrf("/settings" if signed_in else "/login"), "username": username, "password": password}
        if next_path is not None:
            form["next"] = next_path
        return self.request("POST", "/login", form=form)
