import { loadOnDemand } from '../../../load-on-demand.ts';
import {
  describeFacts,
  describeLinkText,
  describePlainText,
  describeTitle,
  type Alert,
  type AlertChannel,
} from '../alert.ts';
import { escapeMarkup } from '../http-post.ts';
import type { AlertRecipient } from '../alerts.repository.ts';

export interface EmailSettings {
  host: string;
  port: number;
  sender: string;
  /** Authenticate with username/password (Semaphore's `email_secure`). */
  secure: boolean;
  username: string;
  password: string;
  /** TLS from the first byte (SMTPS, usually port 465); otherwise STARTTLS when the server offers it. */
  tls: boolean;
  tlsMinVersion: '1.0' | '1.1' | '1.2' | '1.3';
  timeoutMs: number;
}

const TLS_VERSIONS = { '1.0': 'TLSv1', '1.1': 'TLSv1.1', '1.2': 'TLSv1.2', '1.3': 'TLSv1.3' } as const;

function buildEmailSubject(alert: Alert): string {
  return `[${alert.project.name}] ${describeTitle(alert)}`;
}

function buildEmailHtml(alert: Alert): string {
  const rows = describeFacts(alert)
    .map(
      (f) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeMarkup(f.label)}</th><td>${escapeMarkup(f.value)}</td></tr>`,
    )
    .join('');
  const url = escapeMarkup(alert.task.url);
  return `<h3>${escapeMarkup(describeTitle(alert))}</h3><table>${rows}</table><p><a href="${url}">${escapeMarkup(describeLinkText(alert))}</a></p>`;
}

/**
 * Mails each member who asked for alerts, one message per person so addresses are not shared.
 * Successes are not mailed: inboxes get what needs a human (a failure, a plan to confirm), chat gets everything.
 * A test alert is mailed, so the SMTP settings can be checked.
 */
const loadMailer = loadOnDemand<typeof import('nodemailer')>('nodemailer');

export function createEmailChannel(
  settings: EmailSettings,
  listRecipients: (projectId: number) => Promise<AlertRecipient[]>,
): AlertChannel {
  const transport = loadMailer().createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.tls,
    ...(settings.secure ? { auth: { user: settings.username, pass: settings.password } } : {}),
    tls: { minVersion: TLS_VERSIONS[settings.tlsMinVersion] },
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
  });
  return {
    name: 'email',
    async send(alert, signal) {
      if (alert.status === 'success' && !alert.test) return;
      const recipients = await listRecipients(alert.project.id);
      const subject = buildEmailSubject(alert);
      const text = describePlainText(alert);
      const html = buildEmailHtml(alert);
      const results = await Promise.allSettled(
        recipients.map((r) =>
          abortable(
            transport.sendMail({ from: settings.sender, to: { name: r.name, address: r.email }, subject, text, html }),
            signal,
          ),
        ),
      );
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed.length > 0) {
        const reason = failed[0]?.reason;
        throw new Error(
          `email: ${failed.length} of ${recipients.length} messages not sent (${reason instanceof Error ? reason.message : String(reason)})`,
        );
      }
    },
  };
}

/** nodemailer takes no AbortSignal: stop waiting when the alert's time is up (its own socket timeouts close the connection). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('timed out'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
