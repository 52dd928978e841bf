import { invalidFields, notFound } from "@/lib/kernel/errors";
import { png } from "@/lib/ctf/templates/kit/png";
import type { Rng } from "@/lib/ctf/templates/kit/rng";
import { defineTemplate, fakeFlag, type TargetState } from "@/lib/ctf/templates/kit/types";

/**
 * Holiday Snap (osint): a holiday photo whose metadata still holds where it was taken, and a
 * small map service (the target) that lists the places near a point. The café across the
 * street — the nearest café to the photo — shows its guest Wi-Fi code: the flag.
 * easy: decimal GPS; medium: degrees, minutes, seconds; hard/insane: XMP degrees and decimal
 * minutes, and a second café within the radius (insane: a third).
 */
type Place = { id: string; name: string; kind: string; lat: number; lon: number; note: string; wifi?: "flag" | string };
type State = TargetState & { places: Place[] };

const RADIUS_M = 150;
const cities = [
  { name: "Lisbon", lat: 38.7139, lon: -9.1394 },
  { name: "Valparaíso", lat: -33.0458, lon: -71.6197 },
  { name: "Kyoto", lat: 35.0037, lon: 135.7788 },
  { name: "Tallinn", lat: 59.4372, lon: 24.7454 },
  { name: "Cape Town", lat: -33.9249, lon: 18.4241 },
];
const cafeNames = ["Café Aurora", "The Daily Grind", "Bean There", "Kaffee Klatsch", "Café do Largo", "Blue Door Coffee", "Moka & Co"];
const otherPlaces = [
  { kind: "bakery", name: "Golden Crust Bakery" },
  { kind: "museum", name: "Museum of Small Things" },
  { kind: "bookshop", name: "Second Chapter Books" },
  { kind: "pharmacy", name: "Corner Pharmacy" },
  { kind: "tram stop", name: "Old Square (tram stop)" },
];

const EARTH_M = 6_371_000;
export function distanceM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.sqrt(a));
}

/** A point `meters` away from (lat, lon) in a random direction. */
function near(rng: Rng, lat: number, lon: number, meters: number) {
  const angle = (rng.int(360) * Math.PI) / 180;
  const dLat = (meters * Math.cos(angle)) / 111_320;
  const dLon = (meters * Math.sin(angle)) / (111_320 * Math.cos((lat * Math.PI) / 180));
  return { lat: Number((lat + dLat).toFixed(6)), lon: Number((lon + dLon).toFixed(6)) };
}

function dms(value: number, positive: string, negative: string): string {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutes = Math.floor((abs - degrees) * 60);
  const seconds = ((abs - degrees) * 60 - minutes) * 60;
  return `${degrees} deg ${minutes}' ${seconds.toFixed(2)}" ${value < 0 ? negative : positive}`;
}
const decimalMinutes = (value: number, positive: string, negative: string) => {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  return `${degrees},${((abs - degrees) * 60).toFixed(4)}${value < 0 ? negative : positive}`;
};

export const holidaySnap = defineTemplate<State>({
  key: "holiday-snap",
  build({ difficulty, rng }) {
    const city = rng.pick(cities);
    const photo = near(rng, city.lat, city.lon, rng.between(100, 800));
    const names = rng.shuffle(cafeNames);
    const id = () => rng.hex(4);
    const places: Place[] = [{ id: id(), name: names[0], kind: "café", ...near(rng, photo.lat, photo.lon, rng.between(12, 25)), note: "Flat white, terrace facing the square.", wifi: "flag" }];
    const extraCafes = { easy: 0, medium: 0, hard: 1, insane: 2 }[difficulty];
    for (let i = 1; i <= extraCafes; i++) {
      places.push({ id: id(), name: names[i], kind: "café", ...near(rng, photo.lat, photo.lon, rng.between(60, 140)), note: "Round the corner, no view of the square.", wifi: fakeFlag(rng) });
    }
    places.push({ id: id(), name: names[4], kind: "café", ...near(rng, photo.lat, photo.lon, rng.between(400, 900)), note: "By the station.", wifi: fakeFlag(rng) });
    for (const other of rng.shuffle(otherPlaces).slice(0, 3)) places.push({ id: id(), name: other.name, kind: other.kind, ...near(rng, photo.lat, photo.lon, rng.between(20, 140)), note: "Open daily." });

    const metadata: Record<string, string> = { Software: "Pixel Camera 9.2", "Creation Time": `2024:0${rng.between(5, 9)}:1${rng.between(0, 9)} 1${rng.between(0, 9)}:2${rng.between(0, 9)}:0${rng.between(0, 9)}` };
    if (difficulty === "easy") metadata.GPS = `${photo.lat}, ${photo.lon}`;
    else if (difficulty === "medium") Object.assign(metadata, { GPSLatitude: dms(photo.lat, "N", "S"), GPSLongitude: dms(photo.lon, "E", "W") });
    else metadata["XML:com.adobe.xmp"] = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description exif:GPSLatitude="${decimalMinutes(photo.lat, "N", "S")}" exif:GPSLongitude="${decimalMinutes(photo.lon, "E", "W")}"/></x:xmpmeta>`;
    metadata.Description = `Holiday in ${city.name}! Best coffee of the trip, just across the street.`;

    const format = { easy: "decimal degrees", medium: "degrees, minutes and seconds (convert: d + m/60 + s/3600, negative for S and W)", hard: "XMP degrees and decimal minutes (d + m/60, negative for S and W)", insane: "XMP degrees and decimal minutes (d + m/60, negative for S and W)" }[difficulty];
    return {
      description: "From one holiday photo (holiday.png), find the café across the street. Its page on the map service (the target) shows its guest Wi-Fi code: that is the flag.",
      hints: ["Photos remember where they were taken: read the metadata (exiftool, or the PNG's tEXt chunks).", "Across the street means the nearest café."],
      solution: [
        `Read holiday.png's metadata (exiftool, or its tEXt chunks): the GPS position is in ${format}.`,
        `Ask the target's \`nearby?lat=…&lon=…\` for the places within ${RADIUS_M} m of it.`,
        `The nearest café, ${names[0]}, is across the street: its \`place?id=…\` page shows the Wi-Fi code.`,
      ],
      file: { name: "holiday.png", contentType: "image/png", data: png(rng, 96, 64, metadata) },
      target: { difficulty, places },
    };
  },
  serve(state, request) {
    switch (request.page) {
      case "index":
        return { text: `MapSearch\n\nPlaces within ${RADIUS_M} m of a point: ./nearby?lat=<decimal degrees>&lon=<decimal degrees>\nOne place: ./place?id=<id>\n` };
      case "nearby": {
        const coordinate = (name: "lat" | "lon", limit: number) => {
          const raw = request.query[name] ?? "";
          const value = Number(raw);
          if (!/^-?[0-9]{1,3}(?:\.[0-9]{1,10})?$/.test(raw.trim()) || Math.abs(value) > limit) {
            throw invalidFields([{ field: name, message: `Give ${name} in decimal degrees, between -${limit} and ${limit}.` }]);
          }
          return value;
        };
        const [lat, lon] = [coordinate("lat", 90), coordinate("lon", 180)];
        const found = state.places
          .map((place) => ({ place, distance: distanceM(lat, lon, place.lat, place.lon) }))
          .filter(({ distance }) => distance <= RADIUS_M)
          .sort((a, b) => a.distance - b.distance);
        const lines = found.map(({ place, distance }) => `${place.id} | ${place.name} | ${place.kind} | ${Math.round(distance)} m`);
        return { text: `Places within ${RADIUS_M} m of ${lat}, ${lon}:\n\n${lines.length ? lines.join("\n") : "Nothing here."}\n` };
      }
      case "place": {
        const place = state.places.find((candidate) => candidate.id === request.query.id);
        if (!place) throw notFound("Place");
        const wifi = place.wifi === "flag" ? request.flag : place.wifi;
        return { text: `${place.name} (${place.kind})\n${place.lat}, ${place.lon}\n\n${place.note}\n${wifi ? `Guest Wi-Fi code: ${wifi}\n` : ""}` };
      }
      default:
        throw notFound("Page");
    }
  },
});
