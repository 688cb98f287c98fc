import StanzaQuery

/// Loading files into the REPL (stanzaq(1), REPL).
extension REPLSession {

    /// Loads the stanzas of a file (or "-"); returns false after reporting an error.
    @discardableResult
    public func load(path: String) throws(OutputError) -> Bool {
        let fd = openat(directory, path.fileSystemPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            try fail(.opening(path, errno: errno))
            return false
        }
        Interruption.reading(fd)
        defer {
            Interruption.reading(-1)
            close(fd)
        }
        var info = stat()
        // A regular file can be read again: only where its stanzas are is kept.
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            let file = StanzaFile(path: path, directory: directory, defaultNamespace: defaultNamespace)
            var places: [StanzaByteRange] = []
            var last: Element?
            var found = Set<String>()
            var reader: StanzaReader!
            reader = StanzaReader(defaultNamespace: defaultNamespace) { element in
                if let place = reader.currentPlace { places.append(place) }
                Completion.collectNamespaces(of: element, into: &found)
                last = element
                return true
            }
            var failure: (any Error)?
            do { try reader.read(fileDescriptor: fd) } catch { failure = error }
            file.seal(info, places: places)
            // Read again only what the offsets give back as it was read: not gzip
            // (offsets in its decompressed bytes), and the last stanza the same.
            if !reader.isCompressedInput, places.count == reader.stanzaCount,
               let last, let again = try? file.element(at: places.count - 1),
               XMLSerializer().string(for: again) == XMLSerializer().string(for: last) {
                if let failure { try fail(.reading(path, failure)) }
                let first = stanzas.count
                stanzas.reserveCapacity(first + places.count)
                for position in places.indices { stanzas.append(.place(file, position)) }
                namespaces.formUnion(found)
                current = stanzas.count - 1
                cached = last
                _ = first
                return failure == nil
            }
            if places.isEmpty && failure == nil { return true }
            // Otherwise the stanzas are kept: read the file again from its start.
            guard lseek(fd, 0, SEEK_SET) == 0 else {
                if let failure { try fail(.reading(path, failure)) }
                return false
            }
        }
        var loaded: [Element] = []
        let reader = StanzaReader(defaultNamespace: defaultNamespace) { loaded.append($0); return true }
        var ok = true
        do {
            try reader.read(fileDescriptor: fd)
        } catch {
            try fail(.reading(path, error))
            ok = false
        }
        add(loaded, source: path)
        return ok
    }

    /// Stanzas are numbered once, in the order they were loaded, whatever their
    /// source: `:all`'s prefixes, `:list` and `:use` agree.
    func add(_ elements: [Element], source: String) {
        for element in elements {
            stanzas.append(.element(element, source: source))
            namespaces.formUnion(Completion.namespaces(element))
        }
        if !elements.isEmpty { current = stanzas.count - 1 }
    }

    func noteLoaded(_ count: Int, current: Int) throws(OutputError) {
        try note("loaded \(count) stanza\(count == 1 ? "" : "s"); current: \(current + 1) <\(currentStanza?.qualifiedName ?? "?")>")
    }

}
