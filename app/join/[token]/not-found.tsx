import { Card } from "@/components/ui/card";

export default function InvitationNotFound() {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col justify-center px-4 py-12">
      <p className="mb-2 text-sm font-bold text-brand-600">Certify</p>
      <Card>
        <h1 className="text-xl font-semibold">This invitation link is not valid</h1>
        <p className="mt-2 text-sm text-slate-600">
          Check that you opened the whole link from your invitation e-mail. If it still does not work, ask your trainer to send the
          invitation again.
        </p>
      </Card>
    </main>
  );
}
