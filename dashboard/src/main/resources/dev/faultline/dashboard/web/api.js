// The dashboard's read API. Errors come back as {status, error, parameter}.

export class ApiError extends Error {
  constructor(status, message, parameter) {
    super(message);
    this.status = status;
    this.parameter = parameter;
  }
}

/** GET /api/{path} with the given parameters (empty ones left out); resolves to the JSON body. */
export async function get(path, params = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') query.set(key, value);
  }
  const qs = query.toString();
  const response = await fetch('/api/' + path + (qs ? '?' + qs : ''), { headers: { Accept: 'application/json' } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ApiError(response.status, body.error || response.statusText, body.parameter || null);
  }
  return body;
}

/** POST /api/{path} with a JSON body (only the read-only similar-issues search); resolves to the JSON body. */
export async function post(path, body) {
  const response = await fetch('/api/' + path, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ApiError(response.status, answer.error || response.statusText, answer.parameter || null);
  }
  return answer;
}
