/**
 * The browser half: a stand-in for google.script.run, inserted into the sidebar's HTML before
 * its own script. It has the real one's shape (withSuccessHandler, withFailureHandler,
 * withUserObject, then any server function by name, answering asynchronously) and sends each
 * call to the host, either through a page binding (Playwright's exposeFunction) or over HTTP.
 *
 * A failure reaches the failure handler as an Error whose message is "<name>: <message>", the
 * way Apps Script reports a server exception (e.g. "ConfigError: Settings not saved: ...").
 */

/** The page binding the stand-in calls when no endpoint is given. */
export const BINDING = '__sidebarHostCall';

export interface ShimOptions {
  /** POST endpoint taking {name, args} and answering a CallAnswer; default: the page binding. */
  endpoint?: string;
}

export function googleScriptRunShim(options: ShimOptions = {}): string {
  const endpoint = JSON.stringify(options.endpoint ?? null);
  const binding = JSON.stringify(BINDING);
  return `(function () {
  var endpoint = ${endpoint};
  function send(name, args) {
    var body = JSON.stringify({name: name, args: args});
    if (endpoint === null) return window[${binding}](body).then(JSON.parse);
    return fetch(endpoint, {method: 'POST', headers: {'content-type': 'application/json'}, body: body})
      .then(function (response) { return response.json(); });
  }
  function runner(onSuccess, onFailure, userObject) {
    return new Proxy({}, {
      get: function (_target, name) {
        if (name === 'withSuccessHandler') return function (f) { return runner(f, onFailure, userObject); };
        if (name === 'withFailureHandler') return function (f) { return runner(onSuccess, f, userObject); };
        if (name === 'withUserObject') return function (o) { return runner(onSuccess, onFailure, o); };
        if (typeof name !== 'string' || name === 'then') return undefined;
        return function () {
          var args = Array.prototype.slice.call(arguments);
          send(name, args).then(function (answer) {
            if (answer.ok) {
              if (onSuccess) onSuccess(answer.value, userObject);
              return;
            }
            var error = new Error(answer.error.name + ': ' + answer.error.message);
            error.name = answer.error.name;
            if (onFailure) onFailure(error, userObject);
            else console.error(error);
          }, function (e) {
            var error = new Error('NetworkError: Connection failure: ' + e);
            if (onFailure) onFailure(error, userObject);
            else console.error(error);
          });
        };
      }
    });
  }
  window.google = window.google || {};
  window.google.script = window.google.script || {};
  window.google.script.run = runner(null, null, undefined);
})();`;
}

/** The sidebar's HTML with the stand-in's script first in its head. */
export function withShim(html: string, shim: string): string {
  const script = `<script>\n${shim.replace(/<\/script/gi, '<\\/script')}\n</script>`;
  const head = html.match(/<head[^>]*>/i);
  if (!head) return `${script}\n${html}`;
  const at = head.index! + head[0].length;
  return `${html.slice(0, at)}\n${script}${html.slice(at)}`;
}
