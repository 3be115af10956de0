import { LABS } from "../labs/registry";

export function Home() {
  return (
    <section className="home">
      <h1>Labs</h1>
      <ul className="lab-list">
        {LABS.map((e) => (
          <li key={e.id} className="lab-card">
            {e.lab ? (
              <>
                <h2><a href={`#/lab/${e.id}`}>{e.lab.meta.title}</a></h2>
                <p>{e.lab.meta.summary}</p>
                <p className="muted">{e.lab.meta.time} · {e.lab.meta.topics.join(", ")}</p>
              </>
            ) : (
              <p className="error">Lab {e.id} cannot be shown: {e.error}</p>
            )}
          </li>
        ))}
      </ul>
      <h1>Playgrounds</h1>
      <ul className="lab-list">
        <li className="lab-card">
          <h2><a href="#/play/exfat">exFAT: what deleting a file costs in discard requests</a></h2>
          <p>Choose a file's size and pieces; predict the discard requests under Linux 6.14 and 6.15, then replay the delete.</p>
        </li>
        <li className="lab-card">
          <h2><a href="#/play/exfat-dir">exFAT: how far does a create search for free directory entries?</a></h2>
          <p>Create, remove and create again in one directory; predict how much more the search examines without Linux 6.2's hint.</p>
        </li>
        <li className="lab-card">
          <h2><a href="#/play/write-path">The write path: how far down does the writer go?</a></h2>
          <p>Call trees our kernel recorded for a buffered write, fsync, O_DIRECT and sync; predict the deepest layer, then open the tree.</p>
        </li>
        <li className="lab-card">
          <h2><a href="#/play/blk">Block layer: mq-deadline against none</a></h2>
          <p>Run fio-like jobs on a simulated disk, SD card or SSD; predict, then see every request's sector against time.</p>
        </li>
        <li className="lab-card">
          <h2><a href="#/play/f2fs">F2FS unlink on many cores: upstream against CLUE</a></h2>
          <p>FxMark's unlink workloads on 1 to 120 simulated cores; predict CLUE's speed-up, then see where the cores wait.</p>
        </li>
        <li className="lab-card">
          <h2><a href="#/play/ext4">ext4: what a bitmap checksum costs at 4k, bigalloc and 64k blocks</a></h2>
          <p>Write a file buffered or direct at three layouts; predict, then see the crc32c bytes each allocation costs.</p>
        </li>
        <li className="lab-card">
          <h2><a href="#/play/vfat">VFAT: one name, two names on disk</a></h2>
          <p>Type a name; see its 8.3 bytes and long-name entries under code pages 437 and 932 and two iocharsets.</p>
        </li>
      </ul>
    </section>
  );
}
