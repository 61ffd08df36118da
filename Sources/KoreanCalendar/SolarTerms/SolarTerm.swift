/// The 24 solar terms (24절기), in the order they fall in a Gregorian year, from 소한.
public enum SolarTerm: Int, CaseIterable, Sendable {
    case minorCold  // 소한 小寒 (285°)
    case majorCold  // 대한 大寒 (300°)
    case beginningOfSpring  // 입춘 立春 (315°)
    case rainWater  // 우수 雨水 (330°)
    case awakeningOfInsects  // 경칩 驚蟄 (345°)
    case springEquinox  // 춘분 春分 (0°)
    case clearAndBright  // 청명 淸明 (15°)
    case grainRain  // 곡우 穀雨 (30°)
    case beginningOfSummer  // 입하 立夏 (45°)
    case grainBuds  // 소만 小滿 (60°)
    case grainInEar  // 망종 芒種 (75°)
    case summerSolstice  // 하지 夏至 (90°)
    case minorHeat  // 소서 小暑 (105°)
    case majorHeat  // 대서 大暑 (120°)
    case beginningOfAutumn  // 입추 立秋 (135°)
    case endOfHeat  // 처서 處暑 (150°)
    case whiteDew  // 백로 白露 (165°)
    case autumnEquinox  // 추분 秋分 (180°)
    case coldDew  // 한로 寒露 (195°)
    case frostsDescent  // 상강 霜降 (210°)
    case beginningOfWinter  // 입동 立冬 (225°)
    case minorSnow  // 소설 小雪 (240°)
    case majorSnow  // 대설 大雪 (255°)
    case winterSolstice  // 동지 冬至 (270°)

    /// The Sun's apparent ecliptic longitude at the term, in degrees.
    public var longitude: Int { (285 + 15 * rawValue) % 360 }

    public var koreanName: String {
        ["소한", "대한", "입춘", "우수", "경칩", "춘분", "청명", "곡우", "입하", "소만", "망종", "하지",
         "소서", "대서", "입추", "처서", "백로", "추분", "한로", "상강", "입동", "소설", "대설", "동지"][rawValue]
    }

    public var hanja: String {
        ["小寒", "大寒", "立春", "雨水", "驚蟄", "春分", "淸明", "穀雨", "立夏", "小滿", "芒種", "夏至",
         "小暑", "大暑", "立秋", "處暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至"][rawValue]
    }

    public var englishName: String {
        ["Minor Cold", "Major Cold", "Beginning of Spring", "Rain Water", "Awakening of Insects", "Spring Equinox",
         "Clear and Bright", "Grain Rain", "Beginning of Summer", "Grain Buds", "Grain in Ear", "Summer Solstice",
         "Minor Heat", "Major Heat", "Beginning of Autumn", "End of Heat", "White Dew", "Autumn Equinox", "Cold Dew",
         "Frost's Descent", "Beginning of Winter", "Minor Snow", "Major Snow", "Winter Solstice"][rawValue]
    }
}
