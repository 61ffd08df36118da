import ArgumentParser
import Foundation
import Places

/// `saessak place 37.5665 126.9780`: the Korean administrative place of a position, found on this machine.
struct PlaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place", abstract: "Name the Korean place (시도 시군구 읍면동) of a latitude and longitude, with no network.",
        discussion: """
            Give '-' instead of a latitude to read 'LATITUDE LONGITUDE' lines from standard input and write one JSON \
            object per line. Outside South Korea (or at sea) there is no Korean place: JSON gives null, and the text says \
            so with the country the position lies in, if any (일본 (Japan, JP)). --country names the country \
            anywhere (JSON: code, korean, english; null at sea).
            """)

    @Argument(help: ArgumentHelp("Degrees north (WGS84), or '-' for lines from standard input.", valueName: "LATITUDE"))
    var latitude: String

    @Argument(help: ArgumentHelp("Degrees east (WGS84).", valueName: "LONGITUDE"))
    var longitude: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Name the country or territory instead (anywhere, Korea too), from the bundled world table.")
    var country = false

    func validate() throws {
        if latitude == "-" {
            guard longitude == nil else { throw ValidationError("give either '-' or a latitude and a longitude") }
            return
        }
        guard longitude != nil else { throw ValidationError("give a latitude and a longitude (or '-')") }
        _ = try Self.position(latitude, longitude ?? "")
    }

    /// A checked position: numbers in range, in either argument order's units (degrees).
    static func position(_ latitude: String, _ longitude: String) throws -> (Double, Double) {
        guard let lat = Double(latitude), lat.isFinite, (-90...90).contains(lat) else {
            throw ValidationError("latitude '\(latitude)' must be a number of degrees from -90 to 90")
        }
        guard let lon = Double(longitude), lon.isFinite, (-180...180).contains(lon) else {
            throw ValidationError("longitude '\(longitude)' must be a number of degrees from -180 to 180")
        }
        return (lat, lon)
    }

    func run() throws {
        let places: KoreanPlaces
        let world: WorldCountries
        switch (KoreanPlaces.bundled, WorldCountries.bundled) {
        case (.success(let korea), .success(let countries)): (places, world) = (korea, countries)
        case (.failure(let error), _), (_, .failure(let error)): throw CLIError("the place data cannot be read: \(error)")
        }
        if latitude == "-" {
            try BatchInput.run { line in
                let parts = line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
                guard parts.count == 2 else { throw CLIError("expected 'LATITUDE LONGITUDE'") }
                let (lat, lon) = try Self.position(String(parts[0]), String(parts[1]))
                if country { return try Self.json(world.country(latitude: lat, longitude: lon)) }
                return try Self.json(places.place(latitude: lat, longitude: lon))
            }
            return
        }
        let (lat, lon) = try Self.position(latitude, longitude ?? "")
        if country {
            let found = world.country(latitude: lat, longitude: lon)
            print(json ? try Self.json(found) : found.map { "\($0.korean)  (\($0.english), \($0.code))" } ?? "no country here (at sea)")
            return
        }
        let place = places.place(latitude: lat, longitude: lon)
        if json {
            print(try Self.json(place))
        } else if let place {
            print("\(place.text(english: false))  (\(place.text(english: true)))")
        } else if let found = world.country(latitude: lat, longitude: lon) {
            print("no Korean place here: \(found.korean)  (\(found.english), \(found.code))")
        } else {
            print("no Korean place here (outside South Korea, or at sea)")
        }
    }

    static func json(_ place: (some Encodable)?) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let place else { return "null" }
        return String(decoding: try encoder.encode(place), as: UTF8.self)
    }
}
