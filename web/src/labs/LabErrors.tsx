// A lab that could not be read, on the home page and its own page: every error the parser
// found, one line each (file:line: message), so an author fixes them all in one round.

export function LabErrors({ intro, many = intro, error }: { intro: string; many?: string; error?: string }) {
  const lines = (error ?? "").split("\n").filter((l) => l.trim());
  if (lines.length <= 1) return <p className="error">{intro} {lines[0]}</p>;
  return (
    <div className="error" role="alert">
      <p>{many}</p>
      <ul>
        {lines.map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
    </div>
  );
}
