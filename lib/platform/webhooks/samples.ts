import type { EventData, EventType } from "@/lib/platform/pipeline/channels/webhook/events";

/** Sample data of each event, for "send test event": real shapes, obviously fake values. */
export function sampleEventData(type: EventType): EventData<EventType> {
  const now = new Date().toISOString();
  const samples: { [T in EventType]: EventData<T> } = {
    "test.completed": {
      test: "SAMPLE-TEST",
      score: 75,
      correct: 3,
      questions: 4,
      recipient: { email: "recipient@example.com", name: "Sample Recipient" },
      domains: [
        { id: 1, name: "Sample domain A", percent: 100, correct: 2, questions: 2 },
        { id: 2, name: "Sample domain B", percent: 50, correct: 1, questions: 2 },
      ],
      passed: true,
      certificate_url: "https://certify.example.com/certificates/SAMPLE-CERTIFICATE-ID",
    },
    "ctf.deployed": { managed_ctf_id: "ctf_SAMPLE", title: "Sample CTF", url: "https://ctf.example.com/c/sample", is_public: true },
    "ctf.archived": { managed_ctf_id: "ctf_SAMPLE", title: "Sample CTF", archived_at: now, challenges: 3, members: 12 },
    "ctf.deleted": { managed_ctf_id: "ctf_SAMPLE", title: "Sample CTF", deleted_at: now },
    "challenge.published": { managed_ctf_id: "ctf_SAMPLE", challenge_id: "chl_SAMPLE", title: "Sample challenge", category: "web", platform_challenge_id: 1 },
    "challenge.unpublished": { managed_ctf_id: "ctf_SAMPLE", challenge_id: "chl_SAMPLE", title: "Sample challenge", category: "web", platform_challenge_id: 1 },
    "deployment.deployed": { deployment_id: "dep_SAMPLE", challenge_id: "chl_SAMPLE", url: "https://ctf.example.com/d/sample", starts_at: now, ends_at: now },
    "deployment.stopped": { deployment_id: "dep_SAMPLE", challenge_id: "chl_SAMPLE", stopped_at: now, reason: "window_elapsed" },
    "member.invited": { managed_ctf_id: "ctf_SAMPLE", member_id: "mem_SAMPLE", email: "player@example.com", invited_at: now, reinvited: false, self_enrolled: false },
    "member.joined": { managed_ctf_id: "ctf_SAMPLE", member_id: "mem_SAMPLE", email: "player@example.com", joined_at: now },
  };
  return samples[type];
}
