import { createRoot } from "react-dom/client";
import { App } from "./App";
import { startOffline } from "./update";
import "./styles.css";

startOffline();
createRoot(document.getElementById("root")!).render(<App />);
