// fslab labs check [dir]: parse every labs/<id>/lab.md as the page does; print each error
// as file:line: message and exit 1 if there is any.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseLab } from "../../web/src/labs/lab-format";
import { loadTopics } from "../../web/src/topics/node-index";

export async function labsCheck(dir = "labs"): Promise<number> {
  if (!existsSync(dir)) {
    console.error(`fslab labs check: no directory ${dir}`);
    return 1;
  }
  const views = (await loadTopics()).flatMap((t) => t.views.map((v) => v.id));
  let bad = 0;
  const ids = readdirSync(dir).filter((d) => statSync(join(dir, d)).isDirectory());
  for (const id of ids) {
    const file = join(dir, id, "lab.md");
    const name = relative(process.cwd(), file);
    if (!existsSync(file)) {
      console.error(`${name}: missing (every lab folder needs a lab.md)`);
      bad++;
      continue;
    }
    try {
      const lab = parseLab(readFileSync(file, "utf8"), views, name, id);
      console.log(`ok  ${name}: ${lab.meta.title} (${lab.steps.length} step${lab.steps.length === 1 ? "" : "s"})`);
    } catch (e) {
      console.error(e instanceof Error ? e.message : String(e));
      bad++;
    }
  }
  console.log(`${ids.length - bad} of ${ids.length} labs valid`);
  return bad ? 1 : 0;
}
