/**
 * Colours. Players are told apart by colour and by a mark on each follower (a bar, a dot, a
 * ring...), so that no one needs to tell hues apart; the default colours are the Okabe-Ito set,
 * chosen to stay distinct under the common forms of colour blindness.
 */

/** How one player's pieces look. */
export interface PlayerStyle {
  /** Fill colour of the player's followers and towers' tops. */
  readonly fill: string;
  /** Outline colour. */
  readonly stroke: string;
  /** Colour of the mark drawn on the follower (chosen to contrast with `fill`). */
  readonly ink: string;
  /** The mark that tells this player's followers apart without colour. */
  readonly mark: PlayerMark;
}

/** A mark on a follower's body. */
export type PlayerMark = 'none' | 'bar' | 'dot' | 'ring' | 'cross' | 'triangle';

/** Every colour a picture uses. Any CSS colour text an SVG 1.1 renderer reads (`#rrggbb` is safest). */
export interface Palette {
  /** Around and between tiles. */
  readonly background: string;
  /** Fields (and any kind a module draws as open ground). */
  readonly field: string;
  /** Cities. */
  readonly city: string;
  /** City walls (outlines). */
  readonly wall: string;
  /** Roads. */
  readonly road: string;
  /** Road edges. */
  readonly roadEdge: string;
  /** Rivers and lakes. */
  readonly water: string;
  /** River banks. */
  readonly waterEdge: string;
  /** Buildings (cloisters, shrines, houses' roofs use `roof`). */
  readonly building: string;
  /** Roofs. */
  readonly roof: string;
  /** Shrine roofs. */
  readonly shrineRoof: string;
  /** Pennants (coats of arms). */
  readonly pennant: string;
  /** Outlines of tiles and fine lines. */
  readonly line: string;
  /** Text. */
  readonly text: string;
  /** Highlighted cells and features. */
  readonly highlight: string;
  /** The last tile placed. */
  readonly lastTile: string;
  /** The inside of the City of Carcassonne. */
  readonly carcassonne: string;
  /** The Castle: courts. */
  readonly court: string;
  /** The Castle: houses. */
  readonly house: string;
  /** The Castle: towers (and the Tower's tower pieces). */
  readonly tower: string;
  /** The Castle: paths. */
  readonly path: string;
  /** The Castle: the wall round the board. */
  readonly castleWall: string;
  /** The dragon. */
  readonly dragon: string;
  /** The fairy. */
  readonly fairy: string;
  /** Magic portals. */
  readonly portal: string;
  /** Volcanoes. */
  readonly volcano: string;
  /** The Count. */
  readonly count: string;
  /** Players, in seat order (a game with more players than styles reuses them in turn). */
  readonly players: readonly PlayerStyle[];
}

/**
 * The default palette: muted ground colours, and player colours from the Okabe-Ito set, each
 * with its own mark.
 */
export const DEFAULT_PALETTE: Palette = {
  background: '#f3efe6',
  field: '#a6c77a',
  city: '#e2c48e',
  wall: '#8a6a3d',
  road: '#f7f3e8',
  roadEdge: '#6f6150',
  water: '#6fb3e0',
  waterEdge: '#2f6f99',
  building: '#f1e6cf',
  roof: '#b4533c',
  shrineRoof: '#6b4c93',
  pennant: '#2456a6',
  line: '#5b5348',
  text: '#222222',
  highlight: '#ffd400',
  lastTile: '#111111',
  carcassonne: '#d4b27a',
  court: '#e9dfc8',
  house: '#c2714f',
  tower: '#8d939c',
  path: '#f6ecd2',
  castleWall: '#9b948a',
  dragon: '#c0272d',
  fairy: '#f5f0ff',
  portal: '#7b4fb5',
  volcano: '#7a4a32',
  count: '#5d3a8c',
  players: [
    { fill: '#0072b2', stroke: '#00324f', ink: '#ffffff', mark: 'none' },
    { fill: '#e69f00', stroke: '#5c3f00', ink: '#000000', mark: 'bar' },
    { fill: '#009e73', stroke: '#003d2c', ink: '#ffffff', mark: 'dot' },
    { fill: '#d55e00', stroke: '#4f2300', ink: '#ffffff', mark: 'ring' },
    { fill: '#cc79a7', stroke: '#4d2a3e', ink: '#000000', mark: 'cross' },
    { fill: '#f0e442', stroke: '#5a5500', ink: '#000000', mark: 'triangle' },
  ],
};

/** A player's style (styles are reused in turn when there are more players than styles). */
export function playerStyle(palette: Palette, player: number): PlayerStyle {
  return palette.players[player % palette.players.length]!;
}

/**
 * A palette for colour-blind players and low-contrast screens: the same Okabe-Ito player colours
 * and marks as {@link DEFAULT_PALETTE}, with ground colours told apart by lightness as well as hue
 * (pale fields, dark ochre cities with dark walls, white roads with dark edges, sky-blue water) and
 * a dark plum highlight that stands out on all of them, so that no two features a player must
 * tell apart differ by hue alone (red-green, blue-yellow or no colour vision).
 */
export const COLOUR_BLIND_PALETTE: Palette = {
  ...DEFAULT_PALETTE,
  background: '#ffffff',
  field: '#e3ead2',
  city: '#b07a2a',
  wall: '#3d2a0c',
  road: '#ffffff',
  roadEdge: '#222222',
  water: '#56b4e9',
  waterEdge: '#004b7a',
  building: '#fafafa',
  roof: '#6b2b17',
  pennant: '#0b2e6b',
  line: '#222222',
  highlight: '#4b0049',
  lastTile: '#000000',
  carcassonne: '#8f6a35',
  court: '#f2ecdc',
  house: '#7d3b22',
  path: '#ffffff',
};
