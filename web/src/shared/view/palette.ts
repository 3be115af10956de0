// Okabe–Ito: eight colours told apart with every common colour-vision deficiency.
import { scaleOrdinal } from "d3";

export const OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"];
export const FREE = "#e8e8e8";
export const fileColour = scaleOrdinal<number, string>().range(OKABE_ITO);
