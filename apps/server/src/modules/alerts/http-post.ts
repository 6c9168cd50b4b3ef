/**
 * Posts a JSON body and fails on anything but the accepted statuses; the error never names the URL
 * (tokens live in it). Resolves to the parsed answer, undefined when it is not JSON.
 */
export async function postJson(
  channel: string,
  url: string,
  body: unknown,
  signal: AbortSignal,
  options: { headers?: Record<string, string>; accept?: (status: number) => boolean } = {},
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Gantry', ...options.headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    const reason = signal.aborted ? 'timed out' : describeFetchError(error);
    throw new Error(`${channel}: request failed (${reason})`);
  }
  const accept = options.accept ?? ((status: number) => status >= 200 && status < 300);
  if (!accept(response.status)) {
    await response.body?.cancel();
    throw new Error(`${channel}: HTTP ${response.status}`);
  }
  // Reading the answer also hands the connection back to the pool; an unread body holds it until collected.
  return response.json().catch(() => undefined);
}

function describeFetchError(error: unknown): string {
  // undici hides the socket error (ECONNREFUSED, ENOTFOUND...) in `cause`.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Text as itself in a markdown message (DingTalk, Teams cards, Rocket.Chat): on one line, with no link,
 * image, emphasis, code or HTML it could start. A task's message or a project's name is anyone's text.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\\`*_[\]()!<>~]/g, '\\$&');
}

/** Escapes the characters HTML (Telegram) and Slack's mrkdwn treat as markup. */
export function escapeMarkup(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
