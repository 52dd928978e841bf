import { notFound } from "next/navigation";
import { Card, PageHeader } from "@/components/ui/card";
import { devMailboxEnabled } from "@/lib/kernel/config/email";
import { getMailboxMessage } from "@/lib/platform/email/mailbox";
import { getDb } from "@/lib/platform/database";

export const dynamic = "force-dynamic";

export default async function MailboxMessagePage({ params }: { params: Promise<{ id: string }> }) {
  if (!devMailboxEnabled()) notFound();
  const message = await getMailboxMessage(await getDb(), (await params).id);
  if (!message) notFound();
  return (
    <main className="mx-auto max-w-4xl space-y-4 px-4 py-8">
      <a href="/dev/mailbox" className="text-sm text-brand-600 underline">
        ← Mailbox
      </a>
      <PageHeader title={message.subject} description={`From ${message.from} to ${message.to}`} />
      <Card className="p-0">
        <iframe title="HTML part" srcDoc={message.html} sandbox="allow-top-navigation-by-user-activation" className="h-[480px] w-full rounded-lg" />
      </Card>
      <Card>
        <h2 className="mb-2 text-sm font-semibold text-slate-700">Text part</h2>
        <pre className="whitespace-pre-wrap wrap-anywhere text-sm">{message.text}</pre>
      </Card>
    </main>
  );
}
