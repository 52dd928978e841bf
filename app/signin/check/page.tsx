import { Card } from "@/components/ui/card";
import { devMailboxEnabled } from "@/lib/kernel/config/email";

export const dynamic = "force-dynamic";
export const metadata = { title: "Check your e-mail" };

export default function CheckEmailPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-12">
      <Card>
        <h1 className="text-xl font-semibold">Check your e-mail</h1>
        <p className="mt-2 text-sm text-slate-600">A sign-in link is on its way. It works once and expires in 24 hours.</p>
        <p className="mt-2 text-sm text-slate-600">Nothing arrived? Ask again in a few minutes: we send at most 3 links per address per hour.</p>
        {devMailboxEnabled() ? (
          <p className="mt-4 text-sm">
            Development: open the <a className="font-medium text-brand-600 underline" href="/dev/mailbox">dev mailbox</a>.
          </p>
        ) : null}
      </Card>
    </main>
  );
}
