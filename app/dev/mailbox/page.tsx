import { notFound } from "next/navigation";
import { formatDateTime } from "@/components/format/date";
import { Card, PageHeader } from "@/components/ui/card";
import { devMailboxEnabled } from "@/lib/kernel/config/email";
import { listMailbox } from "@/lib/platform/email/mailbox";
import { getDb } from "@/lib/platform/database";

export const dynamic = "force-dynamic";
export const metadata = { title: "Dev mailbox" };

export default async function MailboxPage() {
  if (!devMailboxEnabled()) notFound();
  const messages = await listMailbox(await getDb());
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <PageHeader title="Dev mailbox" description="Every e-mail the app sent while no RESEND_API_KEY is set. Nothing here left the machine." />
      <Card className="p-0">
        {messages.length === 0 ? (
          <p className="p-5 text-sm text-slate-600">No e-mail yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {messages.map((message) => (
              <li key={message.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div className="min-w-0">
                  <a href={`/dev/mailbox/${message.id}`} className="font-medium text-brand-700 hover:underline">
                    {message.subject}
                  </a>
                  <p className="text-sm text-slate-600 wrap-anywhere">
                    to <span data-testid="mail-to">{message.to}</span> · {formatDateTime(message.createdAt)}
                  </p>
                </div>
                {message.links[0] ? (
                  <a href={message.links[0]} className="text-sm font-medium text-brand-600 underline" data-testid="mail-link">
                    Open link
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </main>
  );
}
