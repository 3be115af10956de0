// A bitmap too large to show bit by bit (an 80 GiB exFAT volume has 20,971,520 clusters):
// each pixel is a bucket of bits shaded by the share in use, with the scale printed beside it.
import { useEffect, useRef, useState } from "react";
import { paintDensity } from "./paint";

interface Props {
  bitmap: Uint8Array;
  bits: number;
  /** what a bit is, for the legend: "cluster", "block" */
  unit: string;
  width?: number;
  height?: number;
  /** bumped by the caller when the bitmap's contents changed in place */
  version?: number;
}

export function BitmapCanvas({ bitmap, bits, unit, width = 512, height = 256, version = 0 }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [per, setPer] = useState(1);
  useEffect(() => {
    setPer(paintDensity(canvas.current!.getContext("2d")!, bitmap, bits, width, height));
  }, [bitmap, bits, width, height, version]);
  return (
    <figure className="bitmap-canvas">
      <canvas
        ref={canvas}
        data-testid="bitmap-canvas"
        data-per-pixel={per}
        style={{ width: "100%", maxWidth: width * 2, imageRendering: "pixelated", aspectRatio: `${width} / ${height}` }}
        role="img"
        aria-label={`Allocation bitmap of ${bits.toLocaleString("en")} ${unit}s, 1 pixel = ${per.toLocaleString("en")} ${unit}s`}
      />
      <figcaption className="muted">
        <span className="density-legend" aria-hidden /> 1 pixel = {per.toLocaleString("en")} {unit}s, shaded from all free (light)
        to all in use (dark); {bits.toLocaleString("en")} {unit}s, rows left to right, top to bottom.
      </figcaption>
    </figure>
  );
}
