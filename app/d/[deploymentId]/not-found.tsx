import { Card } from "@/components/ui/card";

export default function DeploymentNotFound() {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col justify-center px-4 py-12">
      <p className="mb-2 text-sm font-bold text-brand-600">Certify</p>
      <Card>
        <h1 className="text-xl font-semibold">There is no challenge at this address</h1>
        <p className="mt-2 text-sm text-slate-600">The link may be incomplete. Ask the organisers for the current link.</p>
      </Card>
    </main>
  );
}
