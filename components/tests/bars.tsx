import { Badge } from "@/components/ui/badge";
import type { RecipientView } from "@/lib/certification/tests/schemas";

/** A small horizontal bar; decorative: the caller always shows the number as text too. */
export function Bar({
  value,
  max = 100,
  tone = "brand",
  className = "",
}: {
  value: number;
  max?: number;
  tone?: "brand" | "green";
  className?: string;
}) {
  const width = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <span aria-hidden="true" className={`block h-2 overflow-hidden rounded-full bg-slate-200 ${className}`}>
      <span className={`block h-full rounded-full ${tone === "green" ? "bg-green-600" : "bg-brand-600"}`} style={{ width: `${width}%` }} />
    </span>
  );
}

const statusBadges: Record<RecipientView["status"], { tone: "neutral" | "warning" | "success"; label: string }> = {
  sent: { tone: "neutral", label: "Sent" },
  started: { tone: "warning", label: "Started" },
  completed: { tone: "success", label: "Completed" },
};

export function StatusBadge({ status }: { status: RecipientView["status"] }) {
  const { tone, label } = statusBadges[status];
  return <Badge tone={tone}>{label}</Badge>;
}
