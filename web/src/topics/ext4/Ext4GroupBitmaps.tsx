// Real ext4 volumes of the same size at three layouts, one strip per block group: the
// group's block bitmap as written on disk, each strip as wide as the bytes its group covers,
// so a 4 KiB-block group and a 64 KiB-block group sit at the same scale. Shade: the share of
// clusters in use under each pixel (dark = full). The table says the same in numbers.
import { useEffect, useRef } from "react";
import type { Ext4Report } from "./inspect-report";
import type { GroupBitmap } from "./ext4-bitmaps";
import { paintDensity } from "../../shared/view/paint";

export interface Ext4Volume {
  name: string;
  report: Ext4Report;
  groups: GroupBitmap[];
}

const WIDTH = 640; // pixels for the largest volume

function Strip({ g, px }: { g: GroupBitmap; px: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const ctx = canvas.current!.getContext("2d")!;
    if (g.bits) paintDensity(ctx, g.bits, g.clusters, Math.max(1, Math.round(px)), 1);
    else {
      canvas.current!.width = 1;
      canvas.current!.height = 1;
    }
  }, [g, px]);
  return (
    <canvas
      ref={canvas}
      className={g.bits ? "group-strip" : "group-strip uninit"}
      style={{ width: `${px}px`, height: "1.1rem", imageRendering: "pixelated" }}
      role="img"
      aria-label={`group ${g.group}: ${g.used} of ${g.clusters} clusters in use${g.bits ? "" : " (BLOCK_UNINIT: no bitmap on disk)"}`}
    />
  );
}

export function Ext4GroupBitmaps({ volumes }: { volumes: Ext4Volume[] }) {
  const bytesOf = (v: Ext4Volume) => v.groups.reduce((n, g) => n + g.clusters, 0) * v.report.cluster_size;
  const scale = WIDTH / Math.max(...volumes.map(bytesOf));
  const kib = (b: number) => `${b / 1024} KiB`;
  return (
    <div className="ext4-bitmaps" data-testid="ext4-bitmaps">
      {volumes.map((v) => (
        <div key={v.name} className="ext4-volume" data-layout={v.name}>
          <h4>
            {v.name}: {v.report.groups_count} group{v.report.groups_count === 1 ? "" : "s"}, each of up to{" "}
            {v.report.superblock.clusters_per_group} {kib(v.report.cluster_size)} {v.report.cluster_size === v.report.block_size ? "blocks" : "clusters"};
            each bitmap is one {kib(v.report.block_size)} block, checksummed whole on every change
          </h4>
          <div className="strips">
            {v.groups.map((g) => (
              <div key={g.group} className="strip-row">
                <span className="muted">g{g.group}</span>
                <Strip g={g} px={g.clusters * v.report.cluster_size * scale} />
                <span>{Math.round((100 * g.used) / g.clusters)}% used</span>
              </div>
            ))}
          </div>
        </div>
      ))}
      <table className="files" aria-label="groups and their bitmaps">
        <thead>
          <tr><th>layout</th><th>group</th><th>clusters</th><th>cluster</th><th>in use</th><th>free</th><th>bitmap block</th></tr>
        </thead>
        <tbody>
          {volumes.flatMap((v) =>
            v.groups.map((g) => (
              <tr key={`${v.name}-${g.group}`} data-layout={v.name} data-group={g.group}>
                <td>{v.name}</td>
                <td>{g.group}</td>
                <td>{g.clusters}</td>
                <td>{kib(v.report.cluster_size)}</td>
                <td>{g.used}</td>
                <td>{g.clusters - g.used}</td>
                <td>{g.bits ? `${v.report.groups[g.group].block_bitmap} (${kib(v.report.block_size)})` : "none: BLOCK_UNINIT"}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      <p className="muted">
        <span className="density-legend" aria-hidden /> each pixel: the share of its clusters in use, light (free) to dark (in
        use); the strips share one scale, {(1 / scale / 1024).toFixed(1)} KiB per pixel. The images were made by the guest's
        mkfs.ext4 with small groups (<code>-g</code>) so a 24 MiB volume has several, and written by its kernel.
      </p>
    </div>
  );
}
