// Validates deploy/k8s/*.yaml against the Kubernetes API schemas of the
// kubernetes-models package, then checks the fields inarow reads: an
// Indexed Job whose completions, parallelism and INAROW_SHARDS agree, the
// judge's arguments, the shared volume mounted where the parts go, and a
// merge Job reading the same volume. Run by scripts/check-k8s.sh.
import fs from "node:fs";
import path from "node:path";
import yaml from "js-yaml";
import { Job } from "kubernetes-models/batch/v1";
import { PersistentVolumeClaim } from "kubernetes-models/v1";

const kinds = { Job, PersistentVolumeClaim };
const dir = process.argv[2];
const objects = [];
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".yaml")).sort()) {
  for (const doc of yaml.loadAll(fs.readFileSync(path.join(dir, file), "utf8"))) {
    if (!doc) continue;
    const Kind = kinds[doc.kind];
    if (!Kind) throw new Error(`${file}: no schema here for kind ${doc.kind}`);
    try {
      new Kind(doc).validate();
    } catch (e) {
      throw new Error(`${file}: ${doc.kind} ${doc.metadata.name}: ${e.message}`);
    }
    objects.push({ file, doc });
  }
}

function check(ok, what) {
  if (!ok) throw new Error(what);
}
const jobs = objects.filter((o) => o.doc.kind === "Job");
const claim = objects.find((o) => o.doc.kind === "PersistentVolumeClaim");
check(claim, "no PersistentVolumeClaim for the parts");
check(claim.doc.spec.accessModes.includes("ReadWriteMany"), "the parts' volume must be ReadWriteMany");
const shards = jobs.find((o) => o.doc.spec.completionMode === "Indexed");
check(shards, "no Indexed Job");
const spec = shards.doc.spec;
const judge = spec.template.spec.containers[0];
const env = Object.fromEntries((judge.env || []).map((e) => [e.name, e.value]));
check(spec.completions === spec.parallelism, "completions and parallelism differ");
check(Number(env.INAROW_SHARDS) === spec.completions, `INAROW_SHARDS ${env.INAROW_SHARDS} is not completions ${spec.completions}`);
const args = judge.args.join(" ");
check(judge.args[0] === "judge", "the Indexed Job does not run inarow judge");
check(/--seed \S+/.test(args), "the shares have no --seed");
check(args.includes("$(JOB_COMPLETION_INDEX)"), "each share's part file must be named by its index");
check(!args.includes("--shard "), "the share comes from JOB_COMPLETION_INDEX, not --shard");
function mounted(job, container) {
  const volume = job.spec.template.spec.volumes.find((v) => v.persistentVolumeClaim);
  check(volume && volume.persistentVolumeClaim.claimName === claim.doc.metadata.name, `${job.metadata.name} does not use the parts' volume`);
  const mount = container.volumeMounts.find((m) => m.name === volume.name);
  check(mount, `${job.metadata.name} does not mount the parts' volume`);
  return mount.mountPath;
}
const partsAt = mounted(shards.doc, judge);
check(args.includes(`--results ${partsAt}/part-`), `the parts are not written to the volume at ${partsAt}`);
const merge = jobs.find((o) => o !== shards);
check(merge, "no merge Job");
const mergeContainer = merge.doc.spec.template.spec.containers[0];
const mergeCmd = [...(mergeContainer.command || []), ...(mergeContainer.args || [])].join(" ");
check(mergeCmd.includes("inarow judge merge"), "the merge Job does not run inarow judge merge");
check(mergeCmd.includes(`${mounted(merge.doc, mergeContainer)}/part-*.json`), "the merge Job does not read the parts from the volume");
console.log(`k8s manifests: ${objects.length} objects valid against the API schemas; ${spec.completions} shares, parts at ${partsAt}, merged by ${merge.doc.metadata.name}`);
