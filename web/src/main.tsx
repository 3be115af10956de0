import { createRoot } from "react-dom/client";
import { App, labAhead } from "./App";
import { startOffline } from "./update";
import "./styles.css";

// a page opened on a lab: what it waits for is asked for before React's first render
const lab = location.hash.match(/^#\/lab\/([\w-]+)$/)?.[1];
if (lab) labAhead(lab);
startOffline();
createRoot(document.getElementById("root")!).render(<App />);
