/// A dictionary with `String` keys, which a type may keep where the spec keeps the version.
protocol StringKeyedDecodableDictionary {}

extension Dictionary: StringKeyedDecodableDictionary where Key == String, Value: Decodable {}
