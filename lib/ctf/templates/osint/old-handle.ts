import { notFound } from "@/lib/kernel/errors";
import { defineTemplate, type TargetState } from "@/lib/ctf/templates/kit/types";

/**
 * Old Handle (osint): a code-hosting site (the target). A conference speaker goes by a new
 * handle; their old one still owns a forgotten repository whose history kept a token they
 * later deleted: the flag. Where the old handle shows: easy, the new profile's bio; medium,
 * the author of an old commit of the new account's blog; hard/insane, a line removed from
 * the blog's README in an old commit (insane: the token in the diff is base64).
 */
type Commit = { id: string; author: string; message: string; diff: string };
type Repo = { name: string; description: string; commits: Commit[] };
type State = TargetState & { speaker: string; handle: string; oldHandle: string; bio: string; repos: Record<string, Repo[]>; secretCommit: string };

export const oldHandle = defineTemplate<State>({
  key: "old-handle",
  build({ difficulty, rng }) {
    const first = rng.pick(["Dana", "Mika", "Robin", "Sasha", "Noor", "Kai"]);
    const last = rng.pick(["Okafor", "Lindqvist", "Moreau", "Tanaka", "Novak"]);
    const handle = `${first.toLowerCase()}-${rng.pick(["codes", "dev", "builds", "hacks"])}`;
    const oldHandle = `${rng.pick(["xX", "the", "l33t", "mr", "ms"])}${last.toLowerCase()}${rng.between(80, 99)}`;
    const commitId = () => rng.hex(4) + rng.hex(3).slice(0, 3);
    const blogCommits: Commit[] = [
      { id: commitId(), author: handle, message: "Write about my talk", diff: "+ # Talk notes\n+ Slides are up." },
      { id: commitId(), author: handle, message: "New theme", diff: "- theme: classic\n+ theme: dark" },
    ];
    const firstCommit = { id: commitId(), author: handle, message: "Start the blog", diff: "+ # My blog\n+ Hello, world." };
    if (difficulty === "medium") firstCommit.author = `${oldHandle} <${oldHandle}@users.example>`;
    if (difficulty === "hard" || difficulty === "insane") firstCommit.diff = `+ # My blog\n+ Hello, world.\n+ My older projects: code.example/${oldHandle}`;
    blogCommits.push(firstCommit);
    if (difficulty === "hard" || difficulty === "insane") {
      blogCommits.unshift({ id: commitId(), author: handle, message: "Tidy the README", diff: `- My older projects: code.example/${oldHandle}` });
    }
    const secretCommit = commitId();
    const dotfiles: Repo = {
      name: "dotfiles",
      description: "my config, do not look",
      commits: [
        { id: commitId(), author: oldHandle, message: "Remove the token, oops", diff: "- export DEPLOY_TOKEN=<token>\n+ export DEPLOY_TOKEN=$(cat ~/.token)" },
        { id: secretCommit, author: oldHandle, message: "Add deploy script", diff: "+ #!/bin/sh\n+ export DEPLOY_TOKEN=<token>\n+ ./deploy.sh" },
        { id: commitId(), author: oldHandle, message: "Initial commit", diff: "+ set -o vi" },
      ],
    };
    const where = {
      easy: "The new profile's bio names the old handle.",
      medium: "The blog's first commit was authored by the old handle.",
      hard: "The blog's README once linked the old handle's projects; a later commit removed the line (see the commits' diffs).",
      insane: "The blog's README once linked the old handle's projects; a later commit removed the line. The token in the diff is base64.",
    }[difficulty];
    return {
      description: "A speaker at this year's conference (the target's `index` page) once used another username. That old account leads to a forgotten repository. Find what it forgot.",
      hints: ["Commit history never forgets.", "Usernames change; commits and old links keep the old one."],
      solution: [
        `The speaker, ${first} ${last}, is @${handle} (\`user?name=${handle}\`).`,
        `${where} It is @${oldHandle}.`,
        `\`user?name=${oldHandle}\` has a repository \`dotfiles\`; its commit ${secretCommit} ("Add deploy script") added the token the next commit removed${difficulty === "insane" ? " (base64: decode it)" : ""}: the flag.`,
      ],
      target: {
        difficulty,
        speaker: `${first} ${last}`,
        handle,
        oldHandle,
        bio: difficulty === "easy" ? `Security engineer. Formerly @${oldHandle}.` : "Security engineer. Talks about supply chains.",
        repos: { [handle]: [{ name: "blog", description: "my blog", commits: blogCommits }], [oldHandle]: [dotfiles, { name: "homework", description: "uni stuff", commits: [{ id: commitId(), author: oldHandle, message: "Lab 3", diff: "+ print('lab 3')" }] }] },
        secretCommit,
      },
    };
  },
  serve(state, request) {
    const repoOf = (spec: string | undefined) => {
      const [owner, name] = (spec ?? "").split("/");
      const repo = (Object.hasOwn(state.repos, owner) ? state.repos[owner] : []).find((candidate) => candidate.name === name);
      if (!repo) throw notFound("Repository");
      return { owner, repo };
    };
    const token = state.difficulty === "insane" ? Buffer.from(request.flag).toString("base64") : request.flag;
    switch (request.page) {
      case "index":
        return { text: `DevConf — speakers\n\n${state.speaker}: "What your git history remembers". Find them as @${state.handle}: ./user?name=${state.handle}\n` };
      case "user": {
        const name = request.query.name ?? "";
        const repos = Object.hasOwn(state.repos, name) ? state.repos[name] : undefined;
        if (!repos) throw notFound("User");
        const bio = name === state.handle ? state.bio : "";
        return { text: `@${name}\n${bio}\n\nRepositories:\n${repos.map((repo) => `  ${repo.name} — ${repo.description}: ./repo?repo=${name}/${repo.name}`).join("\n")}\n` };
      }
      case "repo": {
        const { owner, repo } = repoOf(request.query.repo);
        return { text: `${owner}/${repo.name} — ${repo.description}\n\nCommits (newest first):\n${repo.commits.map((commit) => `  ${commit.id} ${commit.message} (${commit.author}): ./commit?repo=${owner}/${repo.name}&id=${commit.id}`).join("\n")}\n` };
      }
      case "commit": {
        const { repo } = repoOf(request.query.repo);
        const commit = repo.commits.find((candidate) => candidate.id === request.query.id);
        if (!commit) throw notFound("Commit");
        return { text: `commit ${commit.id}\nAuthor: ${commit.author}\n\n    ${commit.message}\n\n${commit.diff.replaceAll("<token>", token)}\n` };
      }
      default:
        throw notFound("Page");
    }
  },
});
