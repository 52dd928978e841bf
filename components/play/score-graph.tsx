"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { callApi } from "@/components/api";
import { formatDateTime } from "@/components/format/date";
import { queryKeys } from "@/components/query-keys";
import { scoreGraphContracts } from "@/lib/ctf/play/contracts";
import type { ScoreGraph as Graph } from "@/lib/ctf/play/schemas";

/** Ten colours told apart on white (each at least 3:1 against it), one per line, in board order. */
const COLOURS = ["#1d4ed8", "#b91c1c", "#047857", "#7c3aed", "#c2410c", "#0e7490", "#be185d", "#4d7c0f", "#92400e", "#475569"];
/** The chart's height: fixed, so nothing moves when it draws (the server renders the box, the browser the lines). */
const HEIGHT = 256;

const timeTick = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** Each series as points, carried on to the graph's last moment at its final score (a line ends where the chart does). */
function chartSeries(graph: Graph) {
  const times = graph.series.flatMap((series) => series.steps.map((step) => Date.parse(step.at)));
  const start = times.length > 0 ? Math.min(...times) : 0;
  const end = graph.frozen_at ? Date.parse(graph.frozen_at) : Math.max(start, ...times);
  const lines = graph.series.map((series) => {
    const points = series.steps.map((step) => ({ at: Date.parse(step.at), score: step.score }));
    const last = points.at(-1);
    if (last && last.at < end) points.push({ at: end, score: last.score });
    return { key: series.team_id ?? series.member_id ?? `pos-${series.pos}`, name: series.name, points };
  });
  return { lines, domain: [start, end] as [number, number] };
}

/**
 * The top ten's scores over time under the scoreboard (recharts), redrawn when the board's
 * top changes (`version`), the last drawing kept meanwhile. The chart is a picture; the same
 * figures are in a table under "Show as a table" (screen readers read that), and the legend
 * names each line.
 */
export function ScoreGraph({ ctfId, initial, version, initialVersion }: { ctfId: string; initial: Graph | null; version: string; initialVersion: string }) {
  const query = useQuery({
    queryKey: queryKeys.scoreGraph(ctfId, version),
    queryFn: () => callApi(scoreGraphContracts.scoreGraph, { params: { ctf_id: ctfId } }),
    initialData: version === initialVersion && initial ? initial : undefined,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  const graph = query.data ?? initial;
  if (!graph || graph.series.length === 0) return null;
  const { lines, domain } = chartSeries(graph);
  return (
    <figure className="mt-6" aria-labelledby="score-graph-title" data-testid="score-graph">
      <figcaption id="score-graph-title" className="text-sm font-semibold text-slate-700">
        Top {graph.series.length} over time
      </figcaption>
      {/* A picture of the table below: hidden from screen readers, which read the table. */}
      <div className="mt-2 w-full" style={{ height: HEIGHT }} aria-hidden="true" data-testid="score-graph-chart">
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <LineChart margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke="#e2e8f0" />
            <XAxis dataKey="at" type="number" domain={domain} scale="time" tickFormatter={(at: number) => timeTick.format(at)} stroke="#475569" fontSize={12} minTickGap={24} allowDuplicatedCategory={false} />
            <YAxis stroke="#475569" fontSize={12} width={44} allowDecimals={false} />
            {lines.map((line, index) => (
              <Line key={line.key} data={line.points} dataKey="score" name={line.name} type="stepAfter" stroke={COLOURS[index % COLOURS.length]} strokeWidth={2} dot={false} isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Legend">
        {lines.map((line, index) => (
          <li key={line.key} className="flex min-w-0 items-center gap-1.5 [overflow-wrap:anywhere]">
            <span aria-hidden="true" className="inline-block h-0.5 w-4 shrink-0" style={{ backgroundColor: COLOURS[index % COLOURS.length] }} />
            {line.name}
          </li>
        ))}
      </ul>
      <details className="mt-2 text-sm" data-testid="score-graph-table">
        <summary className="cursor-pointer text-brand-700 underline">Show as a table</summary>
        <div className="mt-2 overflow-x-auto" role="region" aria-label="Scores over time" tabIndex={0}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Scores of the top {graph.series.length} over time, UTC</caption>
            <thead className="border-b border-slate-200 text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">Name</th>
                <th scope="col" className="py-1 pr-3 font-medium">When</th>
                <th scope="col" className="py-1 text-right font-medium">Score</th>
              </tr>
            </thead>
            <tbody>
              {graph.series.flatMap((series) =>
                series.steps.map((step, index) => (
                  <tr key={`${series.pos}-${index}`} className="border-b border-slate-100">
                    <th scope="row" className="py-1 pr-3 font-normal [overflow-wrap:anywhere]">{series.name}</th>
                    <td className="py-1 pr-3">{formatDateTime(step.at, { seconds: true })}</td>
                    <td className="py-1 text-right tabular-nums">{step.score}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
